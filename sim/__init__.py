"""Synthetic footage with exact ground truth: physics, rendering, play."""
