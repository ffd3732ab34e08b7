"""Synthetic footage with exact ground truth: physics, rendering, play.

Modules (numpy/OpenCV only unless noted):

- ``sim.camera``: ``Camera`` (K, distortion, pose), overhead and broadcast cameras.
- ``sim.render``: ``render_frame`` / ``render_frame_info`` of a static scene,
  ``Appearance`` and ``random_appearance``.
- ``sim.occluders``: player and cue, referee's hand, TV score bar.
- ``sim.truth``: the truth file format and ``load_clip``.
- ``sim.sequencing``: MINIMAL placeholder sequencing for the simulated player (not a
  rules engine; the expected score comes from ``baulk score``).
- ``sim.physics``: one stroke with pooltool 0.6.0 (the ``[sim]`` extra).
- ``sim.player``: the simulated player (pooltool for aim trials).
- ``sim.clip``: ``make_clip``, the whole pipeline (the ``[sim]`` extra).
"""
