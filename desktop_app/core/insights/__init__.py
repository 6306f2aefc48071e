"""What the library can tell about its papers: the learned triage queue, topics, statistics.

Each module is imported on first use (scikit-learn and SciPy load only when a feature asks).
"""
