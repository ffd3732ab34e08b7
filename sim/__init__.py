"""Synthetic footage with exact ground truth: physics, rendering, play.

Modules (numpy/OpenCV only unless noted):

- ``sim.camera``: ``Camera`` (K, distortion, pose), overhead and broadcast cameras.
- ``sim.render``: ``render_frame`` / ``render_frame_info`` of a static scene,
  ``Appearance`` and ``random_appearance``.
- ``sim.occluders``: player and cue, referee's hand, TV score bar.
- ``sim.truth``: the truth file format and ``load_clip``.
- ``sim.sequencing``: between strokes, what the rules engine says comes next
  (the ball on, re-spotted colours, the cue ball in hand, whose turn).
- ``sim.scenes``: random static scenes and short straight-line clips for training,
  tests and evaluation, and the exact ``Calibration`` of a camera.
- ``sim.physics``: one stroke with pooltool 0.6.0 (the ``[sim]`` extra).
- ``sim.player``: the simulated player (pooltool for aim trials).
- ``sim.clip``: ``make_clip``, the whole pipeline (the ``[sim]`` extra).
"""
