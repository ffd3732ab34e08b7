"""Baulk: a computer-vision referee for snooker. The command line and the pipeline."""

__version__ = "0.1.0"
