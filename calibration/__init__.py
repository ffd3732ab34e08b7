"""Table geometry and the camera-to-table mapping.

``calibration.table`` is pure Python (the rules engine uses it); the mapping modules
use numpy and OpenCV and are imported on demand.
"""
