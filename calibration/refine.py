"""Refine an automatic calibration on the whole table: cushions, baulk line and D.

The corners found by ``calibration.auto`` give a first camera. This module then fits
one pinhole camera with radial lens distortion (focal length, k1, rotation,
translation; principal point at the image centre) to edge samples taken along the
predicted table lines:

* each cushion: where the face under the nose is visible from the camera, the bed
  edge (the face meets the cloth, z = 0: the strongest dark-to-bright step going
  inwards); where the face is hidden, the nose itself (z = nose height);
* the baulk line and the D (thin bright chalk lines on the cloth, z = 0).

Residuals are image distances (px), with a robust loss, so balls, a player or a cue
over a line only lose their samples. The fit's own residuals are the self-check: a
camera that does not explain the table's lines is reported as a failure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from scipy.optimize import least_squares

from calibration.mapping import CalibrationError, CameraPose
from calibration.table import CUSHION_NOSE_HEIGHT_MM, TableSpec

# kinds of sample
_X_LINE, _Y_LINE, _ARC = 0, 1, 2


@dataclass(frozen=True)
class Camera8:
    """The refined camera: 8 parameters.

    Attributes:
        focal_px: Focal length, px (square pixels).
        k1: Radial distortion (OpenCV k1, normalised by ``focal_px``).
        rvec: (3,) float64 Rodrigues rotation, table frame to camera frame.
        tvec: (3,) float64 translation, mm (camera frame).
        centre_px: (2,) float64 principal point, px.
    """

    focal_px: float
    k1: float
    rvec: np.ndarray
    tvec: np.ndarray
    centre_px: np.ndarray

    @property
    def rotation(self) -> np.ndarray:
        """(3, 3) float64 rotation matrix, table frame to camera frame."""
        return cv2.Rodrigues(np.asarray(self.rvec, np.float64))[0]

    @property
    def camera_matrix(self) -> np.ndarray:
        """(3, 3) float64 intrinsics K, px."""
        f = self.focal_px
        cx, cy = self.centre_px
        return np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])

    def pose(self, source: str = "refined") -> CameraPose:
        """As a ``CameraPose``."""
        return CameraPose(self.camera_matrix, self.rotation, self.tvec, source)

    def project(self, xyz: np.ndarray) -> np.ndarray:
        """(N, 3) table mm to (N, 2) distorted pixels."""
        return _project(self.params(self.focal_px), self.centre_px, xyz,
                        self.focal_px)[0]

    def params(self, ref: float) -> np.ndarray:
        """(8,) float64 parameters: log f, k1 scaled to the focal length ``ref``,
        rvec, tvec in metres. The scaled k1 keeps the lens's distortion in pixels
        fixed while the focal length moves (overhead views hardly tell it)."""
        kr = self.k1 * (ref / self.focal_px) ** 2
        return np.concatenate(
            [[math.log(self.focal_px), kr], self.rvec, self.tvec / 1000.0]
        )

    @classmethod
    def from_params(cls, p: np.ndarray, centre_px: np.ndarray, ref: float) -> Camera8:
        """Inverse of ``params``."""
        f = float(math.exp(p[0]))
        return cls(
            f, float(p[1] * (f / ref) ** 2), p[2:5].copy(), p[5:8] * 1000.0, centre_px
        )


def _rot(rvec: np.ndarray) -> np.ndarray:
    """Rodrigues vectors (K, 3) to (K, 3, 3) rotations."""
    rvec = np.atleast_2d(rvec)
    theta = np.linalg.norm(rvec, axis=1)
    safe = np.where(theta < 1e-12, 1.0, theta)
    k = rvec / safe[:, None]
    z = np.zeros(len(k))
    kx = np.stack(
        [
            np.stack([z, -k[:, 2], k[:, 1]], axis=1),
            np.stack([k[:, 2], z, -k[:, 0]], axis=1),
            np.stack([-k[:, 1], k[:, 0], z], axis=1),
        ],
        axis=1,
    )
    sin = np.sin(theta)[:, None, None]
    cos = np.cos(theta)[:, None, None]
    return np.eye(3)[None] + sin * kx + (1 - cos) * kx @ kx


def _unpack(p: np.ndarray, ref: float) -> tuple[np.ndarray, ...]:
    """Parameter sets (K, 8) to f (K, 1, 1), distortion k1 (K, 1, 1), R, t (K, 3)."""
    p = np.atleast_2d(p)
    f = np.exp(p[:, 0])[:, None, None]
    k1 = (p[:, 1] * (np.exp(p[:, 0]) / ref) ** 2)[:, None, None]
    return f, k1, _rot(p[:, 2:5]), p[:, 5:8] * 1000.0


def _project(
    p: np.ndarray, centre: np.ndarray, xyz: np.ndarray, ref: float
) -> np.ndarray:
    """Project table mm through parameter sets ``p`` (K, 8) to distorted pixels.

    ``xyz`` is (N, 3) or (K, N, 3); returns (K, N, 2).
    """
    f, k1, r, t = _unpack(p, ref)
    if xyz.ndim == 2:
        cam = np.einsum("kij,nj->kni", r, xyz) + t[:, None, :]
    else:
        cam = np.einsum("kij,knj->kni", r, xyz) + t[:, None, :]
    z = np.where(np.abs(cam[..., 2]) < 1e-6, 1e-6, cam[..., 2])
    xn = cam[..., :2] / z[..., None]
    r2 = np.sum(xn**2, axis=2, keepdims=True)
    return f * xn * (1 + k1 * r2) + centre


def _backproject(
    p: np.ndarray, centre: np.ndarray, px: np.ndarray, z_mm: np.ndarray, ref: float
) -> np.ndarray:
    """(N, 2) distorted pixels to table (x, y) mm on the planes z = ``z_mm`` (N,),
    for each parameter set in ``p`` (K, 8): (K, N, 2)."""
    f, k1, r, t = _unpack(p, ref)
    xd = (px[None] - centre) / f
    xu = xd.copy()
    for _ in range(5):
        xu = xd / (1 + k1 * np.sum(xu**2, axis=2, keepdims=True))
    c = -np.einsum("kji,kj->ki", r, t)
    ray = np.concatenate([xu, np.ones((*xu.shape[:2], 1))], axis=2)
    d = np.einsum("kni,kij->knj", ray, r)  # R^T @ ray
    dz = np.where(np.abs(d[..., 2]) < 1e-9, -1e-9, d[..., 2])
    s = (z_mm[None] - c[:, 2:3]) / dz
    return c[:, None, :2] + s[..., None] * d[..., :2]


@dataclass(frozen=True)
class Samples:
    """Edge samples with the table curve each lies on.

    Attributes:
        px: (N, 2) float64 observed pixels (distorted, as captured).
        kind: (N,) int: 0 = line x = ``value``, 1 = line y = ``value``, 2 = the D arc.
        value: (N,) float64 the line's coordinate (mm) or, for the arc, its radius.
        z_mm: (N,) float64 height of the curve above the cloth, mm.
        group: (N,) int: 0-3 cushions (baulk, right, top, left), 4 baulk line, 5 D.
    """

    px: np.ndarray
    kind: np.ndarray
    value: np.ndarray
    z_mm: np.ndarray
    group: np.ndarray


GROUP_NAMES = ("baulk_cushion", "right_cushion", "top_cushion", "left_cushion",
               "baulk_line", "d")


def _residuals(
    p: np.ndarray, centre: np.ndarray, s: Samples, spec: TableSpec, ref: float
) -> np.ndarray:
    """Signed image distances (K, N) px of the samples from their table curves, for
    parameter sets ``p`` (K, 8)."""
    xy = _backproject(p, centre, s.px, s.z_mm, ref)
    foot = xy.copy()
    mx = s.kind == _X_LINE
    my = s.kind == _Y_LINE
    ma = s.kind == _ARC
    foot[:, mx, 0] = s.value[mx]
    foot[:, my, 1] = s.value[my]
    signed = np.zeros(xy.shape[:2])
    signed[:, mx] = xy[:, mx, 0] - s.value[mx]
    signed[:, my] = xy[:, my, 1] - s.value[my]
    if np.any(ma):
        centre_d = np.array([spec.baulk_line_x, 0.0])
        v = xy[:, ma] - centre_d
        n = np.maximum(np.linalg.norm(v, axis=2, keepdims=True), 1e-9)
        foot[:, ma] = centre_d + v / n * s.value[ma, None]
        signed[:, ma] = n[..., 0] - s.value[ma]
    z = np.broadcast_to(s.z_mm[None, :, None], (*foot.shape[:2], 1))
    q = _project(p, centre, np.concatenate([foot, z], axis=2), ref)
    dist = np.linalg.norm(s.px[None] - q, axis=2)
    return np.where(signed < 0, -dist, dist)


def _profiles(
    gray: np.ndarray, base: np.ndarray, normal: np.ndarray, offsets: np.ndarray
) -> np.ndarray:
    """(N, M) bilinear samples of ``gray`` at ``base + offsets * normal``.

    ``offsets`` is (M,) or (N, M) px.
    """
    off = np.broadcast_to(offsets, (len(base), offsets.shape[-1]))
    pts = base[:, None, :] + off[..., None] * normal[:, None, :]
    mx = pts[..., 0].astype(np.float32)
    my = pts[..., 1].astype(np.float32)
    return cv2.remap(gray, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _curves(spec: TableSpec, cam: Camera8, nose_mm: float) -> list[tuple]:
    """Table curves to look for: (group, kind, value, z, (N, 3) points, (N, 3) inward
    unit directions on the table)."""
    hl, hw = spec.half_length, spec.half_width
    out = []
    # cushions: baulk (x=-hl), right (y=-hw), top (x=+hl), left (y=+hw)
    for group, (kind, sign) in enumerate(
        ((_X_LINE, -1.0), (_Y_LINE, -1.0), (_X_LINE, 1.0), (_Y_LINE, 1.0))
    ):
        half = hl if kind == _X_LINE else hw
        along_half = hw if kind == _X_LINE else hl
        z = nose_mm  # the face below is looked for too (see find_samples)
        t = np.linspace(-along_half + 110.0, along_half - 110.0, 90)
        if kind == _Y_LINE:
            t = t[np.abs(t) > 110.0]
        pts = np.zeros((len(t), 3))
        pts[:, kind] = sign * half
        pts[:, 1 - kind] = t
        pts[:, 2] = z
        inward = np.zeros_like(pts)
        inward[:, kind] = -sign
        out.append((group, kind, sign * half, z, pts, inward))
    bx, r = spec.baulk_line_x, spec.d_radius_mm
    y = np.concatenate([np.linspace(-hw + 60, -r - 70, 25), np.linspace(r + 70, hw - 60,
                                                                        25)])
    pts = np.column_stack([np.full_like(y, bx), y, np.zeros_like(y)])
    inward = np.tile([1.0, 0.0, 0.0], (len(y), 1))
    out.append((4, _X_LINE, bx, 0.0, pts, inward))
    ang = np.linspace(math.pi / 2 + 0.35, 3 * math.pi / 2 - 0.35, 40)
    pts = np.column_stack([bx + r * np.cos(ang), r * np.sin(ang), np.zeros_like(ang)])
    inward = np.column_stack([np.cos(ang), np.sin(ang), np.zeros_like(ang)])
    out.append((5, _ARC, r, 0.0, pts, inward))
    return out


def find_samples(
    gray: np.ndarray, cam: Camera8, spec: TableSpec, window_mm: float,
    nose_mm: float = CUSHION_NOSE_HEIGHT_MM, clothlike: np.ndarray | None = None,
    lit: np.ndarray | None = None,
) -> Samples:
    """Search the image near each predicted table line for its edge or ridge.

    Args:
        gray: (H, W) float32 grey image.
        cam: Current camera.
        spec: Table geometry.
        window_mm: Search half-width around the prediction, mm on the table.
        nose_mm: Cushion nose height, mm.
        clothlike: (H, W) float32, 1 where a pixel has the cloth's colour, or None.
            A cushion's edge then counts only with cloth on both sides (the cushion
            top or face, the bed): not the rail's edge, nor a score bar's.
        lit: (H, W) float32, 1 where a pixel is about as bright as the lit cloth,
            or None. A cushion whose face is hidden, seen at a grazing angle (a
            broadcast view's near cushion), then counts only with a lit cushion
            top just outside its nose: not a dark score bar's edge.
    """
    h, w = gray.shape
    px_l, kind_l, val_l, z_l, grp_l = [], [], [], [], []
    centre = -cam.rotation.T @ cam.tvec
    for group, kind, value, z, pts, inward in _curves(spec, cam, nose_mm):
        a = cam.project(pts)
        along = np.column_stack([-inward[:, 1], inward[:, 0], np.zeros(len(pts))])
        tangent = cam.project(pts + along) - a
        inw = cam.project(pts + inward) - a
        # search across the curve's image (perpendicular to it), inwards: the
        # projected inward direction is oblique to the line in strong perspective
        n = np.column_stack([-tangent[:, 1], tangent[:, 0]])
        n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
        n *= np.where(np.sum(n * inw, axis=1) < 0, -1.0, 1.0)[:, None]
        scale = np.sum(n * inw, axis=1)  # px across the curve per mm inwards
        ok = (
            np.isfinite(scale) & (scale > 1e-3)
            & (a[:, 0] > 3) & (a[:, 0] < w - 4) & (a[:, 1] > 3) & (a[:, 1] < h - 4)
        )
        if ok.sum() < 5:
            continue
        a, n, scale = a[ok], n[ok], scale[ok]
        sc = float(np.median(scale))
        half = max(2.5, window_mm * sc)
        step = 0.5
        bed_off = np.zeros(len(a))
        if group < 4:
            # the bed edge below the nose, seen when the camera is inside the cushion
            inside = inward[0] @ (centre - pts[0]) > 0
            if inside:
                bed = cam.project(np.column_stack([pts[ok, :2], np.zeros(ok.sum())]))
                bed_off = np.maximum(np.sum((bed - a) * n, axis=1), 1e-3)
        offs = np.arange(-half - 3, half + 3 + float(bed_off.max()) + 1e-9, step)
        prof = _profiles(gray, a, n, offs)
        core = (offs[None] >= bed_off[:, None] - half) & (
            offs[None] <= half + bed_off[:, None]
        )
        noise = np.median(np.abs(np.diff(prof, axis=1)), axis=1) + 0.5
        if group < 4:
            # strongest dark-to-bright step going inwards: the bed edge of the face
            # or of the nose's dark line
            g = np.zeros_like(prof)
            g[:, 1:-1] = 0.5 * (prof[:, 2:] - prof[:, :-2])
            if clothlike is not None:
                green = _profiles(clothlike, a, n, offs)
                m = max(2, round(3.0 / step))
                # near[:, j]: mean cloth-likeness of samples j - m + 1 ... j
                csum = np.cumsum(np.pad(green, ((0, 0), (m, 0))), axis=1)
                near = (csum[:, m:] - csum[:, :-m]) / m
                # cloth-likeness just outside (before) and just inside (after) k
                before = np.zeros_like(green)
                after = np.zeros_like(green)
                before[:, 1:] = near[:, : green.shape[1] - 1]
                after[:, :-m] = near[:, m : green.shape[1]]
                g = g * np.clip(np.minimum(before, after) * 2.0 - 0.5, 0.0, 1.0)
            g[~core] = -np.inf
            k = np.argmax(g, axis=1)
            peak = g[np.arange(len(k)), k]
            good = (peak > 2.0) & (peak > 1.5 * noise)
        else:
            lw = max(1.0, 3.0 * sc)  # chalk line width, px
            kk = round(max(1.5, lw + 1.0) / step)
            g = np.full_like(prof, -np.inf)
            g[:, kk:-kk] = prof[:, kk:-kk] - 0.5 * (
                prof[:, : -2 * kk] + prof[:, 2 * kk :]
            )
            g[~core] = -np.inf
            k = np.argmax(g, axis=1)
            peak = g[np.arange(len(k)), k]
            good = peak > np.maximum(3.0, 2.0 * noise)
        # sub-sample peak
        k = np.clip(k, 1, len(offs) - 2)
        y0 = g[np.arange(len(k)), k - 1]
        y1 = g[np.arange(len(k)), k]
        y2 = g[np.arange(len(k)), k + 1]
        den = y0 - 2 * y1 + y2
        with np.errstate(invalid="ignore", divide="ignore"):
            frac = np.where(np.isfinite(den) & (den < -1e-9), 0.5 * (y0 - y2) / den, 0)
        frac = np.clip(np.nan_to_num(frac), -0.5, 0.5)
        pos = offs[k] + frac * step
        # seen from farther out than the camera is high (outside the cushion)
        grazing = inward[0, :2] @ (pts[0, :2] - centre[:2]) > centre[2] - nose_mm
        if group < 4 and lit is not None and not bed_off.any() and grazing:
            u = np.linspace(0.0, 1.0, 5)[None, :]
            top_w = np.maximum(3.0, 25.0 * scale)[:, None]
            top = _profiles(lit, a, n, pos[:, None] - 1.5 - (top_w - 1.5) * u)
            good &= np.mean(top, axis=1) > 0.5
        found = a + pos[:, None] * n
        px_l.append(found[good])
        m = int(good.sum())
        kind_l.append(np.full(m, kind))
        val_l.append(np.full(m, value))
        zs = np.where(bed_off > 0, 0.0, z)
        z_l.append(zs[good])
        grp_l.append(np.full(m, group))
    if not px_l:
        raise CalibrationError("no table lines found near the first estimate")
    return Samples(
        np.concatenate(px_l), np.concatenate(kind_l), np.concatenate(val_l),
        np.concatenate(z_l), np.concatenate(grp_l),
    )


@dataclass(frozen=True)
class Refinement:
    """The result of ``refine``.

    Attributes:
        camera: The refined camera.
        group_rms_px: (6,) float64 RMS of the inlier residuals per group (px), NaN
            where a group has no samples (``GROUP_NAMES`` order).
        group_inliers: (6,) float64 share of each group's searched samples that are
            inliers (within 2 px).
        group_counts: (6,) int number of inlier samples per group.
    """

    camera: Camera8
    group_rms_px: np.ndarray
    group_inliers: np.ndarray
    group_counts: np.ndarray


def refine(
    gray: np.ndarray,
    cam: Camera8,
    spec: TableSpec,
    nose_mm: float = CUSHION_NOSE_HEIGHT_MM,
    focal_prior: float | None = None,
    clothlike: np.ndarray | None = None,
    lit: np.ndarray | None = None,
    windows: tuple[tuple[float, float], ...] = (
        (120.0, 4.0), (40.0, 3.0), (12.0, 1.0), (6.0, 0.7)
    ),
) -> Refinement:
    """Fit the camera to the table's lines found near ``cam``'s prediction.

    Args:
        gray: (H, W) float32 grey frame.
        cam: First estimate (from the corners).
        spec: Table geometry.
        nose_mm: Cushion nose height, mm.
        focal_prior: Focal length the fit is gently held to (px), or None.
        clothlike, lit: See ``find_samples``.
        windows: (search half-width mm, robust loss scale px) per stage, coarse
            to fine.

    Raises:
        CalibrationError: too few edge samples to fit.
    """
    centre = cam.centre_px
    ref = cam.focal_px
    p = cam.params(ref)
    f0 = math.log(focal_prior) if focal_prior else p[0]
    for window, loss_scale in windows:
        s = find_samples(
            gray, Camera8.from_params(p, centre, ref), spec, window, nose_mm,
            clothlike, lit,
        )
        if len(s.px) < 40:
            raise CalibrationError("too few table edges found to refine")

        # robust weights (soft L1), priors kept quadratic; once when coarse
        for _ in range(1 if window > 50 else 2):
            r0 = _residuals(p, centre, s, spec, ref)[0]
            wt = (1.0 + (r0 / loss_scale) ** 2) ** -0.25

            def fun(q: np.ndarray, s: Samples = s, wt: np.ndarray = wt) -> np.ndarray:
                r = _residuals(q, centre, s, spec, ref)[0] * wt
                return np.concatenate([r, [(q[0] - f0) * 40.0, q[1] * 20.0]])

            def jac(q: np.ndarray, s: Samples = s, wt: np.ndarray = wt) -> np.ndarray:
                steps = np.array([1e-4, 1e-4, 1e-5, 1e-5, 1e-5, 1e-5, 1e-5, 1e-5])
                qs = np.vstack([q, q[None] + np.diag(steps)])
                r = _residuals(qs, centre, s, spec, ref) * wt
                j = (r[1:] - r[:1]).T / steps
                prior = np.zeros((2, 8))
                prior[0, 0] = 40.0
                prior[1, 1] = 20.0
                return np.vstack([j, prior])

            sol = least_squares(fun, p, jac=jac, method="lm", max_nfev=20)
            p = sol.x
    final = Camera8.from_params(p, centre, ref)
    s = find_samples(gray, final, spec, 4.0, nose_mm, clothlike, lit)
    r = np.abs(_residuals(p, centre, s, spec, ref)[0])
    rms = np.full(6, np.nan)
    frac = np.zeros(6)
    counts = np.zeros(6, int)
    for g in range(6):
        m = s.group == g
        if not m.any():
            continue
        inl = r[m] < 2.0
        counts[g] = int(inl.sum())
        frac[g] = inl.mean()
        if inl.any():
            rms[g] = float(np.sqrt(np.mean(r[m][inl] ** 2)))
    return Refinement(final, rms, frac, counts)
