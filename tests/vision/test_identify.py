"""Kinds under the snooker counts, and running without the model file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.identify import ColourRules, constrain_kinds, default_classifier
from vision.kinds import KINDS, NONE_CLASS, BallKind


def _row(**p: float) -> np.ndarray:
    row = np.full(NONE_CLASS + 1, 0.001, np.float32)
    for k, v in p.items():
        row[NONE_CLASS if k == "none" else KINDS.index(BallKind(k))] = v
    return row / row.sum()


def test_two_browns_make_one_brown_and_a_red() -> None:
    probs = np.stack([
        _row(brown=0.7, red=0.3),  # a reddish "brown": the red
        _row(brown=0.9, red=0.1),  # the real brown
        _row(brown=0.6, red=0.35),
        _row(none=0.9, brown=0.1),  # not a ball: left alone
    ])
    out = constrain_kinds(probs)
    kinds = [KINDS[k] for k in out[:, :NONE_CLASS].argmax(1)]
    assert kinds[:3].count(BallKind.BROWN) == 1 and kinds[1] == BallKind.BROWN
    assert kinds[0] == kinds[2] == BallKind.RED
    assert np.allclose(out.sum(1), 1.0) and np.allclose(out[3], probs[3])


def test_sixteen_reds_leave_the_worst_alone() -> None:
    probs = np.stack([_row(red=0.9 - 0.01 * i, pink=0.05) for i in range(16)])
    out = constrain_kinds(probs)
    kinds = out[:, :NONE_CLASS].argmax(1)
    assert (kinds == KINDS.index(BallKind.RED)).sum() == 15
    assert kinds[15] == KINDS.index(BallKind.PINK)


def test_runs_without_the_model_and_says_so(tmp_path: Path) -> None:
    with pytest.warns(RuntimeWarning, match="without the ball model"):
        clf = default_classifier(tmp_path / "missing.onnx")
    assert isinstance(clf, ColourRules) and "no ONNX" in clf.description


def test_colour_rules_learn_the_table_from_balls_on_spots() -> None:
    import dataclasses

    from calibration.table import OFFICIAL
    from sim.camera import make_camera
    from sim.render import random_appearance
    from sim.scenes import render_scene, truth_calibration
    from vision.detect import BallDetector

    rng = np.random.default_rng(11)
    cam = make_camera("overhead", rng, size=(960, 540))
    # an odd table: orange-ish reds, a teal green, a light brown
    app = dataclasses.replace(
        random_appearance(rng),
        ball_bgr=(("white", (225.0, 230.0, 232.0)), ("red", (40.0, 60.0, 200.0)),
                  ("yellow", (30.0, 200.0, 235.0)), ("green", (105.0, 120.0, 10.0)),
                  ("brown", (50.0, 95.0, 165.0)), ("blue", (200.0, 110.0, 15.0)),
                  ("pink", (160.0, 150.0, 245.0)), ("black", (25.0, 30.0, 25.0))),
    )
    names = ("white", *OFFICIAL.spots, "red", "red", "red")
    xy = np.array([[-1200.0, 150.0], *OFFICIAL.spots.values(),
                   [300.0, 400.0], [500.0, -500.0], [-300.0, 600.0]])
    sc = render_scene(cam, app, names, xy, rng)
    det = BallDetector(truth_calibration(cam), ColourRules(), constrain=False)
    before = det.classifier.prototypes.copy()
    d = det.detect(sc.image)
    assert det.colours_learned
    assert not np.allclose(det.classifier.prototypes, before)
    near = np.linalg.norm(sc.xy_px[:, None] - d.xy_px[None], axis=2).argmin(1)
    assert [d.kind_names()[j] for j in near] == list(names)
