"""The welcome panel an empty library shows."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget


class WelcomePanel(QWidget):
    importRequested = Signal()  # noqa: N815
    sampleRequested = Signal()  # noqa: N815

    def __init__(self, sample_count: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcomePanel")
        lay = QVBoxLayout(self)
        lay.addStretch(2)
        title = QLabel(self.tr("Welcome to Marginalia"), self)
        title.setObjectName("welcomeTitle")
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title.setStyleSheet("font-size: 26px; font-weight: 600;")
        text = QLabel(
            self.tr(
                "Your library is empty. Bring in a conference's abstracts, a BibTeX file,\n"
                "an RIS, PubMed, CSL-JSON, arXiv or CSV export — or start with the sample.\n"
                "You can also drop files on this window."
            ),
            self,
        )
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        text.setObjectName("welcomeText")  # coloured by the theme's style sheet
        imp = QPushButton(self.tr("Import files…"), self)
        imp.setObjectName("welcomeImport")
        imp.setDefault(True)
        imp.clicked.connect(self.importRequested)
        sample = QPushButton(self.tr("Open the NeurIPS 2026 sample ({0} abstracts)").format(sample_count), self)
        sample.setObjectName("welcomeSample")
        sample.clicked.connect(self.sampleRequested)
        for w in (imp, sample):
            w.setMinimumWidth(360)
            w.setMinimumHeight(36)
        lay.addWidget(title, 0, Qt.AlignmentFlag.AlignHCenter)
        lay.addSpacing(8)
        lay.addWidget(text, 0, Qt.AlignmentFlag.AlignHCenter)
        lay.addSpacing(20)
        lay.addWidget(imp, 0, Qt.AlignmentFlag.AlignHCenter)
        lay.addWidget(sample, 0, Qt.AlignmentFlag.AlignHCenter)
        lay.addStretch(3)
