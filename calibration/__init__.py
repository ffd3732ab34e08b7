"""Table geometry and the camera-to-table mapping.

``calibration.table`` is pure Python (the rules engine uses it); the mapping modules
use numpy and OpenCV and are imported on demand: ``mapping`` (point pairs, pose,
files), ``auto`` (automatic calibration, ``check_frame``, ``follow_frame``),
``refine`` (one camera fitted to the table's lines), ``verify`` (the self-check
every automatic result passes), ``lens`` (checkerboard lens calibration) and
``preview``.
"""
