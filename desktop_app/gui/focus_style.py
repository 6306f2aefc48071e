"""Focus always visible: the widget that has the keyboard shows a 2 px border in the palette's
highlight colour (so it follows the light and dark schemes). ``theme.style_sheet`` ends with
:data:`FOCUS`.

A frame's border width is read when the widget is polished, not on each focus change, so the
border is always there, transparent until the widget has the focus.
"""

_FRAMED = ("QTreeWidget#sidebar", "QTableView#paperTable", "QTextBrowser#readerView", "QListWidget#highlightList")

FOCUS = (
    "\n"
    + ", ".join(_FRAMED)
    + " { border: 2px solid transparent; }\n"
    + ", ".join(f"{w}:focus" for w in _FRAMED)
    + " { border: 2px solid palette(highlight); }\n"
    "QWidget#ratingControl { border: 1px solid transparent; border-radius: 4px; }\n"
    "QWidget#ratingControl:focus { border: 1px solid palette(highlight); }\n"
    # the status buttons: a checked one is filled with a blue already, so its focus is dark
    'QToolButton[checkable="true"]:focus { border: 2px solid palette(highlight); }\n'
    'QToolButton[checkable="true"]:checked:focus { border: 2px solid palette(window-text); }\n'
)
