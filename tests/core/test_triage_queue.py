"""Decisions and the learned triage queue on real libraries: the seeds and a labelled review."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import numpy as np
import pytest

from desktop_app.core.errors import LibraryError
from desktop_app.core.formats import read_path
from desktop_app.core.insights import pace
from desktop_app.core.library import Library
from tests.helpers.shared import SHARED


def test_decision_is_its_own_field_undoable_and_logged(seed_library: Library) -> None:
    lib = seed_library
    ids = lib.query("").ids[:3]
    lib.papers.set_status([ids[0]], "skimmed")
    change = lib.triage.decide([ids[0], ids[1]], "keep")
    assert set(change.paper_ids) == {ids[0], ids[1]}
    p = lib.papers.get(ids[0])
    assert (p.status, p.decision) == ("skimmed", "keep")  # status and decision apart
    assert lib.papers.rows([ids[2]])[ids[2]].decision is None
    assert lib.papers.decision_counts() == {"keep": 2, "maybe": 0, "skip": 0, "none": 74}
    # the undo path the window uses: set_fields back to what was there
    lib.papers.set_fields({ids[0]: {"decision": None}, ids[1]: {"decision": "none"}})
    assert lib.papers.get(ids[0]).decision is None and lib.papers.get(ids[1]).decision is None
    with pytest.raises(LibraryError, match="decision is one of keep, maybe, skip"):
        lib.triage.decide([ids[0]], "include")
    with pytest.raises(LibraryError):
        lib.triage.decide([999_999], "keep")
    from sqlalchemy import select

    from desktop_app.core.store import tables as t

    with lib.store.read() as conn:
        rows = conn.execute(
            select(t.change_log.c.kind, t.change_log.c.detail).where(t.change_log.c.kind == "decision")
        ).all()
    details = [json.loads(d) for _, d in rows]
    assert {"old": None, "new": "keep"} in details and {"old": "keep", "new": None} in details


def test_query_language_and_sort(seed_library: Library) -> None:
    lib = seed_library
    ids = lib.query("").ids
    lib.triage.decide(ids[:2], "keep")
    lib.triage.decide(ids[2:3], "skip")
    assert sorted(lib.query("decision:keep").ids) == sorted(ids[:2])
    assert lib.query("decision:skip").ids == [ids[2]]
    assert lib.query("decision:none").total == 73
    assert lib.query("decision:any").total == 3
    assert lib.query("not decision:none").total == 3
    assert lib.query("decision:keep reasoning").total <= 2
    top = lib.query("", sort="decision").ids[:3]
    assert set(top[:2]) == set(ids[:2]) and top[2] == ids[2]
    from desktop_app.core.search.errors import QuerySyntaxError

    with pytest.raises(QuerySyntaxError, match="decision is one of"):
        lib.query("decision:include")


def test_queue_before_and_after_learning(seed_library: Library) -> None:
    lib = seed_library
    listed = lib.query("").ids
    q = lib.triage.queue("")
    assert [e.id for e in q.entries] == listed and not q.summary.learned
    assert "one keep and one skip" in q.summary.message
    # the two RLVR papers are about one thing; a skip on something else
    rlvr = lib.query("RLVR").ids
    assert len(rlvr) >= 2
    other = next(pid for pid in lib.query("benchmark").ids if pid not in rlvr)
    lib.triage.decide([rlvr[0]], "keep")
    lib.triage.decide([other], "skip")
    q = lib.triage.queue("")
    assert q.summary.learned and q.summary.decided == 2 and q.summary.shown == 76
    order = [e.id for e in q.entries]
    assert sorted(order + q.decided) == sorted(listed)  # nothing hidden, nothing twice
    assert rlvr[0] not in order and other not in order
    assert order.index(rlvr[1]) < 10  # the other RLVR paper comes early
    first = q.entries[0]
    assert first.why and all(isinstance(w, str) for w in first.why)
    scores = [e.score for e in q.entries]
    assert scores == sorted(scores, reverse=True)
    # the filter decides what is shown; the model only the order
    q2 = lib.triage.queue("RLVR")
    assert {e.id for e in q2.entries} | set(q2.decided) == set(rlvr)
    # list order on request
    q3 = lib.triage.queue("", learned=False)
    assert [e.id for e in q3.entries] == [pid for pid in listed if pid not in (rlvr[0], other)]


def test_edge_cases(library_dir: Path, tmp_path: Path) -> None:
    src = tmp_path / "few.csv"
    src.write_text(
        "title,abstract\nOne paper,About graphs and their spectra.\n"
        "Another,\nThird,About graphs again and spectra of graphs.\n",
        encoding="utf-8",
    )
    with Library.open(library_dir) as lib:
        assert lib.triage.queue("").entries == []  # an empty library
        lib.imports.from_files([src])
        ids = lib.query("").ids
        lib.triage.decide(ids, "keep")  # all kept: nothing to learn from, nothing undecided
        q = lib.triage.queue("")
        assert q.entries == [] and not q.summary.learned and q.summary.decided == 3
        lib.triage.decide([ids[1]], "skip")  # the one without an abstract
        lib.triage.decide([ids[2]], None)
        q = lib.triage.queue("")
        assert [e.id for e in q.entries] == [ids[2]] and q.summary.learned
        assert lib.triage.queue("nothingmatchesthis").summary.message == "the filter shows no papers"
        lib.papers.delete([ids[0]])  # a decided paper deleted: its decision no longer teaches
        assert lib.triage.queue("").entries[0].id == ids[2]


def test_near_duplicates(library_dir: Path, tmp_path: Path) -> None:
    text = (
        "We introduce a benchmark of verifiable reasoning tasks for language models and show "
        "that reinforcement learning with verifiable rewards improves accuracy on all of them."
    )
    src = tmp_path / "versions.csv"
    with src.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["title", "abstract"])
        w.writerow(["Verifiable reasoning v1", text])
        w.writerow(["Verifiable reasoning, workshop version", text.replace("all of them", "most of them")])
        w.writerow(["Graph spectra", "Eigenvalues of random graphs concentrate around the semicircle law."])
    with Library.open(library_dir) as lib:
        lib.imports.from_files([src], duplicates="skip")
        ids = sorted(lib.query("").ids)
        assert len(ids) == 3
        near = lib.triage.near_duplicates(ids[0])
        assert [pid for pid, _ in near] == [ids[1]] and near[0][1] >= 0.8
        lib.triage.decide([ids[1]], "keep")
        assert lib.triage.near_duplicates(ids[0]) == []  # decided ones are not offered


def test_keeps_left_estimate() -> None:
    assert pace.keeps_left([True] * 10, 100) is None  # too early
    assert pace.keeps_left([True, False] * 30, 0) == 0.0
    rng = random.Random(4)
    seq = [rng.random() < 0.6 * 0.995**i for i in range(400)]
    truth = sum(0.6 * 0.995**i for i in range(400, 2400))
    est = pace.keeps_left(seq, 2000)
    assert est is not None and truth / 3 <= est <= truth * 3


@pytest.mark.skipif(
    not (SHARED / "screening" / "ADHD.csv").exists(), reason=f"needs {SHARED / 'screening'} (the labelled reviews)"
)
def test_learned_order_beats_list_order_on_a_labelled_review(library_dir: Path, tmp_path: Path) -> None:
    """All 20 included papers of the ADHD review and 280 excluded ones, in file order: after 60
    decisions taken from the queue the user has found far more of them than in list order."""
    csv.field_size_limit(2**31 - 1)
    with (SHARED / "screening" / "ADHD.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    chosen = [r for r in rows if r["label_included"] == "1"] + [r for r in rows if r["label_included"] == "0"][:280]
    chosen.sort(key=lambda r: int(r["record_id"]))
    plain = tmp_path / "adhd.csv"
    with plain.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["title", "abstract"])
        for r in chosen:
            w.writerow([r["title"], r["abstract"]])
    with Library.open(library_dir) as lib:
        parsed = [(str(plain), read_path(plain))]
        lib.imports.from_records(parsed, keep_apart=frozenset((0, i) for i in range(len(chosen))))
        ids = sorted(lib.query("").ids)
        label = {pid: int(r["label_included"]) for pid, r in zip(ids, chosen, strict=True)}
        rng = random.Random(1)
        prior = [rng.choice([p for p in ids if label[p]]), rng.choice([p for p in ids if not label[p]])]
        for pid in prior:
            lib.triage.decide([pid], "keep" if label[pid] else "skip")
        decided = list(prior)
        while len(decided) < 62:
            for e in lib.triage.queue("", limit=5, why=0).entries:
                lib.triage.decide([e.id], "keep" if label[e.id] else "skip")
                decided.append(e.id)
        learned = sum(label[p] for p in decided)
        listed = sum(label[p] for p in ids[:62])
        assert learned >= 12 and learned >= 2 * listed, (learned, listed)
        summary = lib.triage.queue("").summary
        assert summary.decided == len(decided) and summary.likely_keeps is not None


def test_statistics_count_decisions(seed_library: Library) -> None:
    ids = seed_library.query("").ids
    seed_library.triage.decide(ids[:3], "keep")
    seed_library.triage.decide(ids[3:4], "maybe")
    st = seed_library.insights.statistics()
    assert st.by_decision == {"keep": 3, "maybe": 1, "skip": 0, "none": 72}
    assert st.as_dict()["by_decision"]["keep"] == 3


@pytest.mark.shared
@pytest.mark.postgresql
def test_decisions_and_queue_on_a_server(pg_url: str) -> None:
    """The same on a PostgreSQL library: the migration adds the column, decisions persist, the
    queue learns, and the CLI's two commands work."""
    import subprocess
    import sys

    from tests.helpers.shared import SEEDS

    with Library.open(pg_url) as lib:
        lib.imports.from_files(SEEDS[:2])
        ids = lib.query("").ids
        lib.triage.decide([ids[0]], "keep")
        lib.triage.decide([ids[1]], "skip")
        q = lib.triage.queue("")
        assert q.summary.learned and len(q.entries) == len(ids) - 2
        assert lib.query("decision:keep").ids == [ids[0]]
    run = [sys.executable, "-m", "desktop_app", "--library", pg_url, "triage"]
    out = subprocess.run([*run, "decide", "maybe", str(ids[2])], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    out = subprocess.run([*run, "queue", "--limit", "3", "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["summary"]["decided"] == 3 and len(doc["papers"]) == 3
    assert all(p["id"] not in ids[:3] for p in doc["papers"])


def test_decisions_survive_json_export_and_restore_and_show_in_csv(seed_library: Library, tmp_path: Path) -> None:
    import subprocess
    import sys

    ids = seed_library.query("").ids
    seed_library.triage.decide(ids[:2], "keep")
    seed_library.triage.decide(ids[2:3], "skip")
    seed_library.triage.decide(ids[3:4], "maybe")
    folder = seed_library.folder
    seed_library.close()
    run = [sys.executable, "-m", "desktop_app", "--library"]
    doc, table = tmp_path / "lib.json", tmp_path / "lib.csv"
    for fmt, out in (("json", doc), ("csv", table)):
        done = subprocess.run(
            [*run, str(folder), "export", "--format", fmt, "-o", str(out)], capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
    with table.open(encoding="utf-8-sig", newline="") as fh:
        cells = {int(r["id"]): r["decision"] for r in csv.DictReader(fh)}
    assert [cells[i] for i in ids[:5]] == ["keep", "keep", "skip", "maybe", ""]
    fresh = tmp_path / "fresh"
    done = subprocess.run([*run, str(fresh), "import", str(doc)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    with Library.open(fresh) as lib:
        assert lib.papers.decision_counts() == {"keep": 2, "maybe": 1, "skip": 1, "none": 72}
        done = subprocess.run(
            [*run, str(fresh), "triage", "queue", "--limit", "2"], capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        assert len(done.stdout.splitlines()) == 2 and "4 of 76 decided" in done.stderr
        bad = subprocess.run(
            [*run, str(fresh), "triage", "decide", "keep", "99999"], capture_output=True, text=True, timeout=120
        )
        assert bad.returncode == 1 and "99999" in bad.stderr and "Traceback" not in bad.stderr


def test_naive_bayes_weights_equal_scikit_learns(seed_library: Library) -> None:
    """The queue's numpy naive Bayes is scikit-learn's MultinomialNB, term for term."""
    import numpy as np
    from scipy.sparse import csr_matrix
    from sklearn.naive_bayes import MultinomialNB

    from desktop_app.core.insights import queue_model
    from desktop_app.core.insights.text_features import features

    feats = features(seed_library.store, seed_library.folder)
    m = feats.matrix
    x = csr_matrix((m.data, m.indices, m.indptr), shape=m.shape)
    rows = np.array([0, 3, 5, 8, 13, 21, 34])
    y = np.array([1, 0, 0, 1, 0, 0, 0])
    weight = np.where(y == 1, 2.5, 1.0)
    nb = MultinomialNB(alpha=queue_model.NB_ALPHA).fit(x[rows], y, sample_weight=weight)
    ours = queue_model.naive_bayes_weights(m, rows, y, weight)
    assert np.allclose(ours, nb.feature_log_prob_[1] - nb.feature_log_prob_[0], atol=1e-6)
    assert np.allclose(m.dot(ours), x @ ours, atol=1e-6)


def test_a_queue_process_needs_neither_scikit_learn_nor_scipy(seed_library: Library) -> None:
    import subprocess
    import sys

    ids = seed_library.query("").ids
    seed_library.triage.decide(ids[:1], "keep")
    seed_library.triage.decide(ids[1:2], "skip")
    seed_library.triage.queue("")  # builds and caches the features
    code = (
        "import sys; from desktop_app.core.library import Library; "
        f"lib = Library.open({str(seed_library.folder)!r}); q = lib.triage.queue('', limit=3); "
        "assert q.summary.learned and len(q.entries) == 3; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sklearn', 'scipy')))"
    )
    seed_library.close()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_features_built_in_a_child_process_are_found_here(seed_library: Library) -> None:
    from desktop_app.core.insights import text_features

    assert not text_features.cached(seed_library.store, seed_library.folder)
    assert text_features.build_in_child(seed_library.folder)
    assert text_features.cached(seed_library.store, seed_library.folder)
    assert [p.name for p in (seed_library.folder / "cache").glob("features-*")] == [
        f"features-{text_features.fingerprint(seed_library.store)}"
    ]
    ids = seed_library.query("").ids
    seed_library.triage.decide(ids[:1], "keep")  # a decision leaves the texts' fingerprint alone
    assert text_features.cached(seed_library.store, seed_library.folder)
    seed_library.papers.set_abstract(ids[0], "A new abstract about graph spectra and eigenvalues.")
    assert not text_features.cached(seed_library.store, seed_library.folder)  # a new text: rebuilt


def test_a_child_building_features_waits_for_another_process_and_keeps_its_features(seed_library: Library) -> None:
    """While another process builds the features (it holds the cache's lock), the child waits,
    then reads what that one saved instead of building them again."""
    import threading

    from desktop_app.core.insights import cache_lock, text_features

    lib = seed_library
    done: list[bool] = []
    with cache_lock.held(lib.folder, "features"):  # this process is "the other one", building
        child = threading.Thread(target=lambda: done.append(text_features.build_in_child(lib.folder)))
        child.start()
        child.join(3.0)
        assert child.is_alive()  # waiting for the lock (before: built its own meanwhile)
        fp = text_features.fingerprint(lib.store)
        ours = text_features.build(*text_features.paper_texts(lib.store), fp)
        ours.terms = text_features.Terms.of(["zz-built-by-the-other-process", *ours.terms[1:]])
        assert text_features._save(lib.folder, ours)  # the other process's save
    child.join(60)
    assert done == [True]
    kept = text_features._load(lib.folder, fp)
    assert kept is not None and kept.terms[0] == "zz-built-by-the-other-process"


def test_label_columns_of_a_csv_are_nothing_special(library_dir: Path, tmp_path: Path) -> None:
    src = tmp_path / "labelled.csv"
    src.write_text(
        "title,abstract,label_included,label_abstract_screening\n"
        "Graph spectra,Eigenvalues of random graphs.,1,1\n"
        "Bandits,Regret bounds for bandits.,0,0\n",
        encoding="utf-8",
    )
    with Library.open(library_dir) as lib:
        assert lib.imports.from_files([src]).added == 2
        assert lib.papers.decision_counts() == {"keep": 0, "maybe": 0, "skip": 0, "none": 2}
        assert lib.query("decision:any").total == 0


@pytest.mark.parametrize("fmt", ["bib", "csv"])
def test_decisions_come_back_from_bibtex_and_csv(seed_library: Library, tmp_path: Path, fmt: str) -> None:
    """Marginalia's own BibTeX (a `marginalia-decision` field) and CSV (a decision column) bring
    the decisions back into a new library; a BibTeX file of another tool keeps none."""
    import subprocess
    import sys

    ids = seed_library.query("").ids
    seed_library.triage.decide(ids[:2], "keep")
    seed_library.triage.decide(ids[2:3], "skip")
    folder = seed_library.folder
    seed_library.close()
    out = tmp_path / f"lib.{fmt}"
    run = [sys.executable, "-m", "desktop_app", "--library"]
    done = subprocess.run(
        [*run, str(folder), "export", "--format", fmt, "-o", str(out)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    if fmt == "bib":
        assert out.read_text(encoding="utf-8").count("marginalia-decision") == 3
    with Library.open(tmp_path / "fresh") as lib:
        lib.imports.from_files([out])
        assert lib.papers.decision_counts() == {"keep": 2, "maybe": 0, "skip": 1, "none": 73}
        assert lib.triage.queue("").summary.decided == 3
        from desktop_app.core.insights import pace

        assert pace.decision_sequence(lib.store) == []  # imported decisions are not the user's pace


def test_queue_entries_held_as_arrays_read_as_entries() -> None:
    from desktop_app.core.insights.triage_queue import QueueEntries, QueueEntry

    scores = np.array([0.123456, np.nan, 0.5])
    entries = QueueEntries([7, 3, 9], scores, {0: ["reward"]})
    assert list(entries) == [QueueEntry(7, 0.1235, ["reward"]), QueueEntry(3, None, []), QueueEntry(9, 0.5, [])]
    assert entries[-1].id == 9 and entries[1:] == [QueueEntry(3, None, []), QueueEntry(9, 0.5, [])]
    assert entries.ids() == [7, 3, 9] and entries.scores() == {7: 0.1235, 9: 0.5}
    assert entries.explanations() == {7: ["reward"]} and QueueEntries() == [] and len(entries) == 3
