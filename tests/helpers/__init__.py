"""Helpers shared by test modules: paths, libraries, the command line, faults. No tests here, so
that pytest never collects a module twice and a test module imports only from helpers."""
