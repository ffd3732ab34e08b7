"""``report.html``: the scoresheet and a table diagram of each stroke (inline SVG).

Self-contained: one HTML file, no scripts, no external resources.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from calibration.table import TableSpec

FILL: dict[str, str] = {
    "white": "#f4f4f4", "red": "#d0202a", "yellow": "#f2d21b", "green": "#1f8a3a",
    "brown": "#7a4a1e", "blue": "#1f5fd0", "pink": "#f49ac1", "black": "#111111",
}
"""Ball colours of the diagrams."""

CSS = """body{font-family:sans-serif;margin:2em;color:#222}
table.sheet{border-collapse:collapse;margin-bottom:2em}
.sheet td,.sheet th{border:1px solid #bbb;padding:3px 8px;font-size:14px}
.sheet th{background:#eee}.foul{color:#b00}.unknown{color:#b60}
.stroke{display:inline-block;margin:0 1em 1.5em 0;vertical-align:top;width:460px}
.stroke p{margin:.2em 0;font-size:13px}"""


def _svg(spec: TableSpec, result: Any, width: int = 440) -> str:
    """Table diagram of one stroke: cushions, pockets, paths, rest positions."""
    hl, hw = spec.half_length, spec.half_width
    pad = 90.0
    scale = width / (2 * (hl + pad))
    height = int(2 * (hw + pad) * scale)

    def pt(x: float, y: float) -> tuple[float, float]:
        # baulk end on the left, the left cushion (+y) at the top
        return ((x + hl + pad) * scale, (hw + pad - y) * scale)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}">',
             f'<rect width="{width}" height="{height}" fill="#5a3a1a" rx="8"/>']
    x0, y0 = pt(-hl, hw)
    x1, y1 = pt(hl, -hw)
    parts.append(f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" '
                 f'height="{y1 - y0:.1f}" fill="#1d7a3a"/>')
    bx, _ = pt(spec.baulk_line_x, 0)
    parts.append(f'<line x1="{bx:.1f}" y1="{y0:.1f}" x2="{bx:.1f}" y2="{y1:.1f}" '
                 'stroke="#cfe" stroke-width="0.8"/>')
    r_d = spec.d_radius_mm * scale
    _, cy = pt(0, 0)
    parts.append(f'<path d="M {bx:.1f} {cy - r_d:.1f} A {r_d:.1f} {r_d:.1f} 0 0 0 '
                 f'{bx:.1f} {cy + r_d:.1f}" fill="none" stroke="#cfe" '
                 'stroke-width="0.8"/>')
    for px, py in spec.pockets.values():
        x, y = pt(px, py)
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{45 * scale:.1f}" '
                     'fill="#000"/>')
    r = spec.ball_radius * scale
    for name, (x, y) in result.before:
        cx, cy = pt(x, y)
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="none" '
                     f'stroke="{FILL.get(name, "#fff")}" stroke-width="1" '
                     'stroke-dasharray="2,2"/>')
    for name, pts in result.paths:
        d = " ".join(f"{a:.1f},{b:.1f}" for a, b in (pt(x, y) for x, y in pts))
        colour = FILL.get(name, "#fff")
        parts.append(f'<polyline points="{d}" fill="none" stroke="{colour}" '
                     'stroke-width="1.6" stroke-opacity="0.9"/>')
    for name, (x, y) in result.events.positions:
        cx, cy = pt(x, y)
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" '
                     f'fill="{FILL.get(name, "#fff")}" stroke="#000" '
                     'stroke-width="0.5"/>')
    parts.append("</svg>")
    return "".join(parts)


def render_report(analysis: Any, spec: TableSpec, title: str) -> str:
    """The report's HTML text for an ``Analysis`` (its strokes and final state)."""
    state = analysis.state.to_json()
    players = state.get("players", [])
    esc = html.escape
    rows = []
    shots = state.get("shots", [])
    for i, res in enumerate(analysis.strokes):
        ev = res.events
        shot = res.shot or {}
        fouls = ", ".join(shot.get("fouls", []))
        pots = ", ".join(b + (f" ({p})" if p else "") for b, p in ev.potted)
        who = players[shot["player"]] if shot and shot.get("player") is not None \
            and shot["player"] < len(players) else "?"
        unknown = "; ".join(str(u) for u in ev.unknown)
        rows.append(
            f"<tr><td>{i + 1}</td><td>{ev.start_frame}-{ev.end_frame}</td>"
            f"<td>{esc(who)}</td><td>{esc('+'.join(ev.first_contact) or 'none')}</td>"
            f"<td>{esc(pots)}</td><td>{esc(', '.join(ev.off_table))}</td>"
            f"<td>{shot.get('points', '')}</td>"
            f"<td class='foul'>{esc(fouls)}"
            f"{' ' + str(shot.get('penalty')) if fouls else ''}</td>"
            f"<td class='unknown'>{esc(unknown or (res.error or ''))}</td></tr>")
    score = " - ".join(f"{esc(p)} {s}" for p, s in zip(
        players, state.get("scores", []), strict=False))
    diagrams = []
    for i, res in enumerate(analysis.strokes):
        ev = res.events
        shot = res.shot or {}
        label = f"Stroke {i + 1} (frames {ev.start_frame}-{ev.end_frame})"
        what = ("FOUL: " + ", ".join(shot["fouls"]) + f", {shot['penalty']} away"
                if shot.get("fouls") else f"{shot.get('points', 0)} points")
        diagrams.append(
            f"<div class='stroke'><p><b>{esc(label)}</b></p>{_svg(spec, res)}"
            f"<p>first contact {esc('+'.join(ev.first_contact) or 'none')}; "
            f"{esc(what)}</p></div>")
    extra = ""
    if len(shots) != len(analysis.strokes):
        extra = "<p>Some strokes were not accepted by the rules engine.</p>"
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>Baulk report: {esc(title)}</title><style>{CSS}</style></head><body>"
        f"<h1>Baulk report</h1><p>{esc(title)}</p>"
        f"<h2>Score: {score}</h2>"
        f"<p>Ball on: {esc(', '.join(state.get('ball_on', [])) or '-')}; "
        f"break {state.get('current_break', 0)}; highest breaks "
        f"{state.get('highest_break')}; frame over: {state.get('frame_over')}</p>"
        "<h2>Scoresheet</h2><table class='sheet'><tr><th>#</th><th>frames</th>"
        "<th>player</th><th>first contact</th><th>potted</th><th>off table</th>"
        "<th>points</th><th>foul, penalty</th><th>undecided</th></tr>"
        + "".join(rows) + f"</table>{extra}<h2>Strokes</h2>"
        + "".join(diagrams) + "</body></html>\n"
    )


def write_report(path: Path, analysis: Any, spec: TableSpec, title: str) -> None:
    """Write ``report.html``."""
    path.write_text(render_report(analysis, spec, title), encoding="utf-8")
