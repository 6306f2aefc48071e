"""The translated window: every GUI string wrapped, a complete zh_CN catalogue, CJK glyphs drawn,
a Chinese window under LANG=zh_CN.UTF-8, and the font notice (desktop_app/gui/i18n.py,
cjk_fonts.py, resources/i18n)."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, QRect, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter
from PySide6.QtWidgets import QApplication, QLabel

from desktop_app.gui import i18n, preferences

ROOT = Path(__file__).resolve().parents[2]
GUI = ROOT / "desktop_app" / "gui"
I18N = ROOT / "resources" / "i18n"
BIN = Path(sys.executable).parent
HEADER = (ROOT / "resources" / "sample" / "001_5ed41c11dbfea66b.txt").read_text(encoding="utf-8").splitlines()[0]
CHINESE_ABSTRACT = (
    "我们提出一种基于可验证奖励的强化学习方法，用于提升大语言模型的推理能力。"
    "实验表明，该方法在多个数学推理基准上显著优于现有方法，"
    "并且在训练过程中保持了解的多样性，避免了推理边界的收缩。"
)

# ---- (a) every user-visible string literal goes through tr()/translate() ------------------------
SETTERS = {
    "setText",
    "setWindowTitle",
    "setToolTip",
    "setPlaceholderText",
    "addAction",
    "addMenu",
    "setStatusTip",
    "showMessage",
    "addTab",
    "insertTab",
    "setTabText",
    "setHeaderLabels",
    "setHorizontalHeaderLabels",
    "setInformativeText",
    "setDetailedText",
    "setWhatsThis",
    "setTitle",
    "setLabelText",
    "addItem",
    "addItems",
    "insertItem",
    "setPrefix",
    "setSuffix",
    "setSpecialValueText",
    "setAccessibleName",
    "addButton",
    "addRow",
    "setHtml",
    "setPlainText",
    "setNameFilter",
    "warning",
    "critical",
    "information",
    "question",
    "about",
    "getText",
    "getItem",
    "getInt",
    "getMultiLineText",
    "getOpenFileName",
    "getOpenFileNames",
    "getSaveFileName",
    "getExistingDirectory",
    "QAction",
    "QLabel",
    "QPushButton",
    "QToolButton",
    "QCheckBox",
    "QRadioButton",
    "QGroupBox",
    "QMessageBox",
    "QMenu",
    "QLineEdit",
    "QCommandLinkButton",
    "QProgressDialog",
    "QTreeWidgetItem",
    "QListWidgetItem",
    "QUndoCommand",
    "createUndoAction",
    "createRedoAction",
    "setUndoText",
    # the project's own helpers that show their text argument
    "_action",
    "_say",
    "status_message",
    "show_error",
    "_do",
    "_perform",
    "_bulk",
    "_plain_label",
    "add",
    "_add",
    "add_highlight",
    "perform",
    "SwitchRefused",
    "failed",
    "start_job",
}
# which positional arguments are text (all when not listed)
ARGPOS = {
    "_action": {1},
    "_say": {0},
    "status_message": {0},
    "show_error": {0},
    "_do": {0},
    "_perform": {0},
    "_bulk": {2},
    "_plain_label": {0},
    "add": {0},
    "_add": {1},
    "add_highlight": {0},
    "perform": {1},
    "SwitchRefused": {0},
    "failed": {0},
    "start_job": {1},
    "addItem": {0},
    "insertItem": {1},
    "addTab": {1, 2},
    "insertTab": {2, 3},
    "addAction": {0, 1},
    "addMenu": {0, 1},
    "addButton": {0},
    "addRow": {0},
    "QTreeWidgetItem": {1},
    "QListWidgetItem": {0},
    "QProgressDialog": {0, 1},
}
TEXT_KEYWORDS = {"text", "title", "label", "message", "caption", "toolTip", "placeholderText"}
STR_METHODS = {"format", "strip", "rstrip", "lstrip", "capitalize", "upper", "lower", "replace"}
# texts that are not words to translate; each with its reason
ALLOWED = {
    "no view  to render; the views: ",  # launch.run_gui: a --screenshot usage error, on stderr (CLI, English)
    "postgresql://lin@db.lab.example/papers?sslmode=require",  # shared_desk: an example address, the same in every language
}


def _texts(node: ast.AST):
    if isinstance(node, ast.Constant) and isinstance(node.value, str) or isinstance(node, ast.JoinedStr):
        yield node
    elif isinstance(node, ast.IfExp):
        yield from _texts(node.body)
        yield from _texts(node.orelse)
    elif isinstance(node, ast.BinOp):
        yield from _texts(node.left)
        yield from _texts(node.right)
    elif isinstance(node, ast.BoolOp | ast.Tuple | ast.List):
        for v in node.values if isinstance(node, ast.BoolOp) else node.elts:
            yield from _texts(v)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in STR_METHODS:
        yield from _texts(node.func.value)  # "…{0}".format(x): the literal is still shown


def _is_words(text: str) -> bool:
    """Whether a literal holds words (HTML tags, placeholders and key names are not words)."""
    text = re.sub(r"<[^>]*>|\{[^}]*\}|&\w+;", " ", text)
    return re.search(r"[A-Za-z]{2,}", text) is not None


def untranslated(source: str) -> list[tuple[int, str, str]]:
    """(line, call, text) for each user-visible literal in ``source`` not wrapped in tr()."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name not in SETTERS:
            continue
        wanted = ARGPOS.get(name)
        args = [a for i, a in enumerate(node.args) if wanted is None or i in wanted]
        args += [k.value for k in node.keywords if k.arg in TEXT_KEYWORDS]
        for arg in args:
            for lit in _texts(arg):
                text = (
                    lit.value
                    if isinstance(lit, ast.Constant)
                    else "".join(v.value for v in lit.values if isinstance(v, ast.Constant))
                )
                if _is_words(text) and text not in ALLOWED:
                    found.append((lit.lineno, name, text))
    return found


def test_the_scan_finds_an_unwrapped_string() -> None:
    bad = (
        'class W(QWidget):\n    def f(self, n):\n        QLabel("Hello world", self)\n'
        '        self.setWindowTitle(f"{n} papers found")\n        b.setToolTip("Open" if n else "Close")\n'
        '        self._action(menu, "&Quit", self.close)\n'
    )
    assert [t for _, _, t in untranslated(bad)] == ["Hello world", " papers found", "Open", "Close", "&Quit"]
    good = (
        'class W(QWidget):\n    def f(self, n):\n        QLabel(self.tr("Hello world"), self)\n'
        '        self.setWindowTitle(self.tr("%n papers found", "", n))\n        b.setObjectName("openButton")\n'
        '        self._action(menu, QCoreApplication.translate("W", "&Quit"), self.close, "Ctrl+Q")\n'
        '        label.setText(f"<b>{name}</b>")\n'
    )
    assert untranslated(good) == []


@pytest.mark.parametrize("path", sorted(GUI.glob("*.py")), ids=lambda p: p.name)
def test_every_user_visible_string_is_translatable(path: Path) -> None:
    found = untranslated(path.read_text(encoding="utf-8"))
    assert not found, "\n".join(
        f"{path.name}:{line}: {call}({text!r}) is not wrapped in tr()" for line, call, text in found
    )


# ---- (b) the catalogues: complete, and up to date with the sources ---------------------------
def _messages(ts: Path) -> list[ET.Element]:
    return list(ET.parse(ts).getroot().iter("message"))


def test_every_source_string_has_a_chinese_translation() -> None:
    messages = _messages(I18N / "marginalia_zh_CN.ts")
    assert len(messages) > 500
    for m in messages:
        source, t = m.findtext("source"), m.find("translation")
        assert t.get("type") not in ("unfinished", "vanished", "obsolete"), source
        forms = [f.text for f in t.findall("numerusform")] if m.get("numerus") == "yes" else [t.text]
        assert forms and all(forms), f"no translation for {source!r}"
        for text in forms:
            # the same placeholders, and the accelerator kept (as 文件(&F))
            assert sorted(re.findall(r"\{[^}]*\}", text)) == sorted(re.findall(r"\{[^}]*\}", source)), source
            assert ("%n" in text) == ("%n" in source), source
            if re.search(r"&[A-Za-z]", source):
                assert re.search(r"&[A-Za-z]", text), source
        if "%n" in source:
            assert m.get("numerus") == "yes" and len(forms) == 1, source  # Chinese: one form
    assert any(m.findtext("translation") == "文件(&F)" for m in messages)


def test_the_english_catalogue_has_both_plural_forms() -> None:
    messages = _messages(I18N / "marginalia_en.ts")
    zh_numerus = {m.findtext("source") for m in _messages(I18N / "marginalia_zh_CN.ts") if m.get("numerus") == "yes"}
    assert {m.findtext("source") for m in messages} == zh_numerus
    for m in messages:
        forms = [f.text for f in m.find("translation").findall("numerusform")]
        assert len(forms) == 2 and all(forms) and "(s)" not in "".join(forms), m.findtext("source")


def _catalogue(ts: Path) -> set[tuple[str, str]]:
    return {
        (c.findtext("name"), m.findtext("source"))
        for c in ET.parse(ts).getroot().iter("context")
        for m in c.iter("message")
    }


def translated_literals(source: str) -> list[tuple[str, str, int]]:
    """(context, text, line) of each tr("…") / translate("Ctx", "…") / QT_TRANSLATE_NOOP call."""
    found = []

    def visit(node: ast.AST, cls: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            visit(child, child.name if isinstance(child, ast.ClassDef) else cls)
        if not isinstance(node, ast.Call):
            return
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        lits = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
        if name == "tr" and isinstance(node.func, ast.Attribute) and lits and isinstance(lits[0], str):
            found.append((cls or "?", lits[0], node.lineno))
        elif (
            name in ("translate", "QT_TRANSLATE_NOOP") and len(lits) >= 2 and all(isinstance(x, str) for x in lits[:2])
        ):
            found.append((lits[0], lits[1], node.lineno))

    visit(ast.parse(source), None)
    return found


@pytest.mark.parametrize("path", sorted(GUI.glob("*.py")), ids=lambda p: p.name)
def test_every_wrapped_string_is_in_the_catalogue(path: Path) -> None:
    """pyside6-lupdate skips a call it cannot read (a plural count that is not a plain name, a
    wrapper of translate()): such a string would stay English in every language."""
    known = _catalogue(I18N / "marginalia_zh_CN.ts")
    missing = [
        f"{path.name}:{line}: [{ctx}] {text!r}"
        for ctx, text, line in translated_literals(path.read_text(encoding="utf-8"))
        if (ctx, text) not in known
    ]
    assert not missing, "not in marginalia_zh_CN.ts (run `make translations`):\n" + "\n".join(missing)


@pytest.mark.skipif(not (BIN / "pyside6-lupdate").exists(), reason="pyside6-lupdate is not in this venv")
def test_the_catalogues_are_up_to_date(tmp_path: Path) -> None:
    """`make translations` was run: lupdate finds no new string, lrelease gives the committed .qm."""
    for name, extra in (("marginalia_zh_CN", []), ("marginalia_en", ["-pluralonly"])):
        ts = tmp_path / f"{name}.ts"
        shutil.copy(I18N / f"{name}.ts", ts)
        out = subprocess.run(
            [
                str(BIN / "pyside6-lupdate"),
                *sorted(map(str, GUI.glob("*.py"))),
                "-ts",
                str(ts),
                *extra,
                "-no-obsolete",
                "-locations",
                "none",
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        assert ts.read_text(encoding="utf-8") == (I18N / f"{name}.ts").read_text(encoding="utf-8"), (
            f"{name}.ts is behind the sources: run `make translations` and translate the new strings\n{out.stdout}"
        )
        qm = tmp_path / f"{name}.qm"
        subprocess.run([str(BIN / "pyside6-lrelease"), str(ts), "-qm", str(qm)], capture_output=True, check=True)
        assert qm.read_bytes() == (I18N / f"{name}.qm").read_bytes(), f"{name}.qm is stale: run `make translations`"


# ---- loading, plurals, numbers ----------------------------------------------------------------
@pytest.fixture
def chinese(qapp):
    assert i18n.install(qapp, "zh_CN") == "zh_CN"
    yield
    i18n.install(qapp, "en")


def test_plurals_and_numbers_in_english() -> None:
    assert [i18n.papers(n) for n in (0, 1, 2)] == ["0 papers", "1 paper", "2 papers"]
    default = QLocale()
    QLocale.setDefault(QLocale("en_US"))
    try:
        assert i18n.papers(12345) == "12,345 papers"
    finally:
        QLocale.setDefault(default)


def test_plurals_and_numbers_in_chinese(chinese) -> None:
    assert [i18n.papers(n) for n in (1, 2)] == ["1 篇论文", "2 篇论文"]
    assert i18n.status_label("unread") == "未读"
    assert QLocale().name() == "zh_CN"


@pytest.mark.parametrize(
    ("choice", "system", "expected"),
    [
        ("system", "zh_CN", "zh_CN"),
        ("system", "zh_SG", "zh_CN"),
        ("system", "de_DE", "en"),
        ("system", "zh_TW", "en"),
        ("en", "zh_CN", "en"),
        ("zh_CN", "en_US", "zh_CN"),
        ("zh_CN.UTF-8", "C", "zh_CN"),
    ],
)
def test_the_language_follows_the_preference_else_the_system(choice: str, system: str, expected: str) -> None:
    assert i18n.resolve(choice, QLocale(system)) == expected


def test_the_menus_are_chinese(make_window, seeded_dir: Path, chinese) -> None:
    win = make_window(seeded_dir)
    menus = [a.text() for a in win.menuBar().actions()]
    assert menus[:5] == ["文件(&F)", "编辑(&E)", "论文(&P)", "视图(&V)", "帮助(&H)"]
    assert win.model.headerData(0, Qt.Orientation.Horizontal) == "标题"
    assert "篇论文" in win.search.count.text()


def test_settings_offers_the_language_for_the_next_start(make_window, seeded_dir: Path, settings) -> None:
    from desktop_app.gui.settings_dialog import SettingsDialog

    win = make_window(seeded_dir)
    dialog = SettingsDialog(win)
    combo = dialog.language
    assert [combo.itemText(i) for i in range(combo.count())] == ["System", "English", "简体中文"]
    combo.setCurrentIndex(combo.findData("zh_CN"))
    dialog.apply()
    assert preferences.get_str(settings, preferences.LANGUAGE) == "zh_CN"
    assert [w.text() for w in dialog.findChildren(QLabel) if "next" in w.text() or "starts again" in w.text()]
    dialog.close()


def _run_gui_script(script: str, env_lang: str, tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(
        LANG=env_lang,
        LANGUAGE="",
        QT_QPA_PLATFORM="offscreen",
        HOME=str(tmp_path),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        PYTHONPATH=str(ROOT),
    )
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


MENU_SCRIPT = """
import json
from desktop_app.gui.app import application
from desktop_app.gui.launch import _scratch_settings, close_window, open_main_window
app = application()
win = open_main_window({folder!r}, _scratch_settings())
menus = [a.text() for a in win.menuBar().actions()]
close_window(win)
print(json.dumps(menus))
"""


def test_lang_zh_cn_opens_a_chinese_window(tmp_path: Path) -> None:
    menus = _run_gui_script(MENU_SCRIPT.format(folder=str(tmp_path / "lib")), "zh_CN.UTF-8", tmp_path)
    assert menus[:5] == ["文件(&F)", "编辑(&E)", "论文(&P)", "视图(&V)", "帮助(&H)"]
    english = _run_gui_script(MENU_SCRIPT.format(folder=str(tmp_path / "lib2")), "en_US.UTF-8", tmp_path)
    assert english[:5] == ["&File", "&Edit", "&Paper", "&View", "&Help"]


# ---- (c) CJK glyphs, not boxes ----------------------------------------------------------------
def _cjk_font_installed() -> bool:
    fc = shutil.which("fc-list")
    return bool(fc and subprocess.run([fc, ":lang=zh", "family"], capture_output=True, text=True).stdout.strip())


def _glyph(ch: str, font: QFont) -> QImage:
    img = QImage(48, 48, QImage.Format.Format_RGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.setFont(font)
    p.setPen(QColor("black"))
    p.drawText(QRect(0, 0, 48, 48), Qt.AlignmentFlag.AlignCenter, ch)
    p.end()
    return img


def _inked(img: QImage) -> int:
    return sum(1 for y in range(img.height()) for x in range(img.width()) if QColor(img.pixel(x, y)).lightness() < 128)


needs_cjk_font = pytest.mark.skipif(
    not _cjk_font_installed(), reason="no CJK font (fc-list :lang=zh); .ci/run installs fonts-noto-cjk"
)


@needs_cjk_font
def test_chinese_characters_draw_as_glyphs_not_boxes(qapp) -> None:
    font = QApplication.font()
    font.setPixelSize(32)
    missing = ["\U000f0000", "\U000f0001"]  # private use: no font has them: the "box" Qt draws
    box_a, box_b = (_glyph(c, font) for c in missing)
    assert box_a == box_b  # boxes all look the same: the method would see tofu
    glyphs = {c: _glyph(c, font) for c in "论文列表"}
    images = list(glyphs.values())
    assert all(_inked(g) > 20 for g in images)
    assert all(a != b for i, a in enumerate(images) for b in images[i + 1 :])  # each character its own shape
    assert all(g != box_a for g in images)
    from desktop_app.gui import cjk_fonts

    assert cjk_fonts.cjk_font_available()


@needs_cjk_font
def test_the_header_and_a_chinese_abstract_render_as_glyphs(make_window, tmp_path: Path, qtbot) -> None:
    assert "论文列表" in HEADER
    seed = tmp_path / "zh.txt"
    seed.write_text(f"{HEADER}\n\n{CHINESE_ABSTRACT}\n", encoding="utf-8")
    from desktop_app.core.library import Library

    folder = tmp_path / "lib"
    with Library.open(folder) as lib:
        assert lib.imports.from_files([seed]).added == 1
    win = make_window(folder)
    win.resize(1200, 800)
    qtbot.waitUntil(lambda: win.reader.paper is not None or win.model.rowCount() == 1, timeout=5000)
    win.select_paper(win.model.ids[0])
    qtbot.waitUntil(
        lambda: win.reader.paper is not None and "强化学习" in win.reader.abstract.toPlainText(), timeout=5000
    )

    def shot(text: str):
        win.reader.abstract.setPlainText(text)
        return win.reader.abstract.grab().toImage()

    # two different characters swapped: boxes would draw the same picture, glyphs do not
    assert shot("论文列表") != shot("列表论文")
    assert shot("\U000f0000\U000f0001") == shot("\U000f0001\U000f0000")  # the control: real boxes
    header = QLabel(HEADER)
    qtbot.addWidget(header)
    header.adjustSize()
    image = header.grab().toImage()
    swapped = QLabel(HEADER.replace("论文列表", "列表论文"))
    qtbot.addWidget(swapped)
    swapped.adjustSize()
    assert image != swapped.grab().toImage()


# ---- the notice when no font covers CJK text ---------------------------------------------------
def test_the_cjk_notice_is_said_once(make_window, seeded_dir: Path, settings, qtbot) -> None:
    from desktop_app.gui.cjk_fonts import CjkFontNotice, advice

    win = make_window(seeded_dir)
    notice = CjkFontNotice(win, font_available=lambda: False)
    assert not notice.check(["Attention is all you need"])  # nothing Chinese: nothing said
    assert notice.check([HEADER])
    labels = [w.text() for w in win.statusBar().findChildren(QLabel)]
    assert advice() in labels and "fonts-noto-cjk" in advice() and "noto-fonts-cjk" in advice()
    assert win.findChild(object, "cjkFontBanner") is not None
    assert preferences.get_bool(settings, preferences.CJK_FONT_WARNED)
    again = CjkFontNotice(win, font_available=lambda: False)
    assert not again.check([HEADER])  # said once, remembered
    with_font = CjkFontNotice(win, font_available=lambda: True)
    preferences.put(settings, preferences.CJK_FONT_WARNED, False)
    assert not with_font.check([HEADER])


# ---- locale-aware title order --------------------------------------------------------------------
def test_titles_sort_with_the_locales_collation(make_window, seeded_dir: Path, chinese) -> None:
    from desktop_app.core.library import Library

    titles = ["Zebra crossings", "éclair studies", "Apple trees", "中国的强化学习", "北京数据集", "阿里巴巴模型"]
    with Library.open(seeded_dir) as lib:
        ids = lib.query("").ids[: len(titles)]
        for pid, title in zip(ids, titles, strict=True):
            lib.papers.set_title(pid, title)
        lib.papers.delete([pid for pid in lib.query("").ids if pid not in ids])
    win = make_window(seeded_dir)
    win.set_sort("title", False)
    win.refresh_query()
    shown = [win.model.data(win.model.index(r, 0)) for r in range(win.model.rowCount())]
    # SQLite's NOCASE would give Apple, Zebra, éclair, then the Chinese in code-point order
    # (中 U+4E2D, 北 U+5317, 阿 U+963F); the zh_CN collator gives pinyin (ālǐ, běijīng, zhōngguó),
    # Han before Latin, and folds case and accents
    assert shown == ["阿里巴巴模型", "北京数据集", "中国的强化学习", "Apple trees", "éclair studies", "Zebra crossings"]
    win.set_sort("title", True)
    win.refresh_query()
    assert [win.model.data(win.model.index(r, 0)) for r in range(win.model.rowCount())] == shown[::-1]


def test_the_notice_watches_the_titles_in_sight(make_window, seeded_dir: Path, settings, qtbot) -> None:
    from desktop_app.core.library import Library
    from desktop_app.gui.cjk_fonts import CjkFontNotice

    with Library.open(seeded_dir) as lib:
        first = lib.query("").ids[0]
        lib.papers.set_title(first, "北京数据集：一个新的基准")
    win = make_window(seeded_dir)
    win.resize(1200, 800)
    win.refresh_query()
    preferences.put(settings, preferences.CJK_FONT_WARNED, False)
    CjkFontNotice(win, font_available=lambda: False)
    qtbot.waitUntil(lambda: win.findChild(object, "cjkFontBanner") is not None, timeout=5000)
    assert preferences.get_bool(settings, preferences.CJK_FONT_WARNED)


def test_every_package_carries_the_catalogues_and_asks_for_a_cjk_font() -> None:
    """Static checks of the packaging (the builds themselves are tests/e2e/test_packaging.py)."""
    import tomllib

    control = re.search(r"^Recommends: (.*)$", (ROOT / "packaging/build_linux.sh").read_text(), re.M)
    assert control and "fonts-noto-cjk" in control.group(1)
    install = (ROOT / "packaging/linux/install.sh").read_text()
    assert "fc-list :lang=zh" in install and "fonts-noto-cjk" in install
    assert "fonts-noto-cjk" in (ROOT / ".ci/run").read_text()
    spec = (ROOT / "packaging/marginalia.spec").read_text()
    assert 'datas += tree(PKG / "resources", "desktop_app/resources")' in spec  # resources/i18n/*.qm
    assert "qtbase_zh_CN.qm" in spec  # Qt's own buttons and dialogs in Chinese
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert package_data["desktop_app.resources"] == ["**/*"]  # the wheel (pip install ., the Flatpak)
    assert {p.name for p in I18N.glob("*.qm")} == {"marginalia_en.qm", "marginalia_zh_CN.qm"}
