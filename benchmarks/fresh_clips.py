"""Generate the fresh clip sets used by ``analyze_eval.py`` (needs the sim install).

Usage::

    .venv/bin/python benchmarks/fresh_clips.py OUT [--seeds 301-320] [--strokes 5]
        [--cuts] [--variant wpbsa|amateur|american|golf]

One ``baulk synth`` clip per seed in ``OUT/s<seed>`` (``OUT/c<seed>`` with
``--cuts``; ``OUT/american_s<seed>`` with ``--variant american``, and so on): odd
seeds overhead, even seeds broadcast (with ``--cuts``, every clip broadcast,
cutting to a close-up between some strokes). Clips already made are
kept. The project reports ``--seeds 301-310`` as its development set,
``311-320`` as a second development set (first held out, then its mistakes were
studied), ``321-340`` as the next (held out, then two of 321-330's mistakes were
studied), ``341-360`` as held out, ``361-380`` (held out, then studied),
``381-400`` (held out, then one mistake studied), ``401-420`` (held out,
then studied), ``421-440`` (held out, then studied), ``441-460`` (held out,
scored once, then three mistakes studied), ``461-480`` as held out (scored once,
then the mistakes of 467, 474, 479 and 480 studied), ``481-500``, ``501-520``
and ``521-540`` (each held out, scored once, then studied), ``541-560`` and
``561-580`` (held out, scored once, then two and one mistakes studied),
``581-600``, ``601-620``, ``621-640``, ``641-660`` and ``661-680`` (each held
out, scored once, then studied), ``681-700`` and ``701-720`` (held out, scored
once; some of their mistakes studied), ``721-740``, ``741-760`` and
``761-780`` (each held out, scored once, then studied: session 15),
``781-800``, ``801-820`` and ``821-840`` (each held out, scored once, then
studied), ``841-860`` and ``861-880`` (held out, scored once, then studied),
``881-900`` and ``901-920`` (held out, scored once: session 17; 907 and 908
studied in session 18), ``921-940``
(held out, scored once, then studied: session 18), ``941-960``,
``961-980`` and ``981-1000`` (held out, scored once: session 18; 992 and
1000 studied in session 19), ``1001-1020`` and ``1021-1040`` (held out,
scored once: session 19), ``1041-1060`` (held out, scored once, then studied:
session 20), ``1061-1080`` (held out, scored once, then studied: session
20), ``1081-1100`` (held out, scored once: session 20; 1096 studied in
session 21), ``1101-1120`` (held out, scored once, then studied: session 21),
``1121-1140`` (held out, scored once: session 21; 1121 studied in session 22),
``1141-1160`` and ``1161-1180`` (held out, scored once, then their mistakes
studied: session 22), ``1181-1200`` (held out, scored once, then its mistakes
studied: session 23), ``1201-1220`` (held out, scored once: session 23; 1205
and 1209 looked at, not fixed), ``1221-1240`` (held out, scored once: session
23; 1222 and 1224 fixed, 1236 and 1240 looked at, in session 24),
``1241-1260`` (held out, scored once, then its mistakes studied: session 24;
1246 fixed in session 25), ``1261-1280`` and ``1281-1300`` (held out, scored
once, then their mistakes studied: session 25), ``1301-1320`` (held out,
scored once with session 25's final code; 1302 and 1317 looked at, then fixed
in session 26), ``1321-1340`` (held out, scored once, then its mistakes studied:
session 26), ``1341-1360`` (held out, scored once with session 26's code;
1348 then fixed, 1350 looked at and fixed in session 27), ``1361-1380``
(held out, scored once with session 26's final code: session 27),
``1381-1400``, ``1401-1420``, ``1421-1440`` and ``1441-1460`` (held out,
scored once, then their mistakes studied: session 28; 1458 fixed in session
29), ``1461-1480`` (held out, scored once with session 28's final code, then
its mistakes studied: session 29), ``1481-1500`` (held out, scored once with
session 29's final code, then its mistakes studied: session 30), ``1501-1520``
(held out, scored once with session 30's final code: session 31),
``1521-1540`` (held out, scored once with the same code, then its mistakes
studied: session 31), ``1541-1560`` and ``1561-1580`` (held out, scored once
with session 31's final code, then their mistakes studied: session 32),
``1581-1600`` and ``1601-1620`` (held out, scored once with session 32's
final code), ``1621-1640`` (held out, scored once with session 32's final
code, then its mistakes studied: session 33), ``1641-1660`` (held out, scored
once with 5170dd4: session 33), ``1661-1680`` and ``1681-1700`` (held out,
scored once with ab02e74: session 33; 1686 then studied and fixed),
``1701-1720`` and ``1721-1740`` (held out, scored once with session 33's
final code, b6d3506, then their mistakes studied: session 34),
``1741-1760`` and ``1761-1780`` (held out, scored once with session 34's
final code, 88628c8, then their mistakes studied: session 35),
``1781-1800`` (held out, scored once with session 35's final code,
24f1241, then 1788 studied: session 35), ``1801-1820`` and ``1821-1840``
(held out, scored once with session 35's final code, bd6829c, then their
mistakes studied: session 36), ``1841-1860`` and ``1861-1880`` (held out,
scored once with e72b0cf, then 1844 studied and fixed: session 36),
``1881-1900`` (held out, scored once with 3c69ebb, then 1890 studied and
fixed: session 36), ``1901-1920`` (held out, scored once with session 36's
final code), ``1921-1940`` and ``1941-1960`` (held out, scored once with
session 36's final code, fb88812, then their mistakes studied: session 37),
``1961-1980`` and ``1981-2000`` (held out, scored once with ecdb0d9, then
1983 studied and fixed: session 38), ``2021-2040`` and ``2041-2060`` (held
out, scored once with 176e77d), ``2061-2080`` and ``2081-2100`` (held out,
scored once with 176e77d, then 2070 and 2086 studied and fixed: session 38),
``2101-2120`` and ``2121-2140`` (held out, scored once with session 38's
final code, c504e52; 2118 and 2138 then studied: session 39),
``2141-2160`` and ``2161-2180`` (held out, scored once with 469afa7, then 2151
and 2152 studied and fixed: session 39), ``2181-2200`` and ``2201-2220``
(held out, scored once with 13832f0, then 2184 studied and fixed: session
39), ``2221-2240`` and ``2241-2260`` (held out, scored once with a53b188,
then 2224 studied and fixed: session 39), ``2261-2280`` and ``2281-2300``
(held out, scored once with 0c1cce7, then 2278 studied and fixed: session
39; 2279 then fixed: session 40), ``2301-2320`` and ``2321-2340`` (held out,
scored once with 2699057, then 2317 and 2324 studied and fixed: session 40),
``2341-2360`` and ``2361-2380`` (held out, scored once with 0a69ed0, then
2356 studied and 2374 fixed: session 40), ``2381-2400`` and ``2401-2420``
(held out, scored once with 5082df4, then 2412 studied and fixed: session
40), ``2421-2440`` and ``2441-2460`` (held out, scored once with session
40's final code, 8d7ea67; 2439 then studied), ``2461-2480`` and
``2481-2500`` (held out, scored once with session 40's final code, 42c0afe;
2476 then studied, and fixed in session 41), ``2501-2520`` and
``2521-2540`` (held out, scored once with 17b1462, then 2506 studied and
2522 fixed: session 41), ``2541-2560`` and ``2561-2580`` (held out, scored
once with session 41's final code, 0cad572; 2571 fixed in session 42),
``2581-2600`` (held out, scored once with ea47aa5, then 2592 and 2594 fixed:
session 42), ``2601-2620`` (held out, scored once with c468b6a, then 2620
fixed: session 42), ``2621-2640`` (held out, scored once with session 42's
final code, 606e5ec; 2631 fixed in session 43), ``2641-2660`` (held out,
scored once with 5c4b8e0, then 2648, 2649 and 2658 fixed: session 43),
``2661-2680`` and ``2681-2700`` (held out, scored once with session 43's
final code, 2e3b068 and 003cf59, the same but for tidying), ``2701-2720``
(held out, scored once with 9c72578, then 2713 fixed: session 44),
``2721-2740`` (held out, scored once with be9afc3), ``2741-2760`` and
``2761-2780`` (held out, scored once with 168e36b; 2768 fixed: session 44),
``2781-2800`` (held out, scored once with session 44's final code, 365d7b0),
``2801-2820`` (held out, scored once with session 44's final code, e4a595b;
2811 and 2820 fixed in session 45), ``2821-2840`` (held out, scored once with
session 45's final code, f7bf8aa; 2828 fixed in session 46), ``2841-2860``
(held out, scored once with 90ca90e; 2856 fixed in session 46),
``2861-2880`` (held out, scored once with f7fd205; 2866 fixed in session 46),
``2881-2900`` and ``2901-2920`` (held out, scored once with session 46's
final code, 5508704; 2884 and 2906 fixed in session 47, and 2900's end
as its tracks replay),
``2921-2940`` and ``2941-2960`` (held out, scored once with session 47's
final code, 39430bb and 09dc6b8; 2958 fixed in session 48),
``2961-2980`` (held out, scored once with session 47's final code, 3ed17ec),
``2981-3000`` and ``3001-3020`` (held out, scored once with efdba5a; 3001
fixed in session 48), ``3021-3040`` (held out, scored once with 39dd775, the
same code), ``3041-3060`` and ``3061-3080`` (held out, scored once with
session 48's final code, 6475dec; 3045 fixed in session 49), ``3081-3100``
(held out, scored once with 907c6db; 3081 fixed in session 49),
``3101-3120`` (held out, scored once with session 49's final code, 9b148ff;
3064, 3082 and 3086 of the sets above fixed in session 50), ``3121-3140``
(held out, scored once with 8f9410f), ``3141-3160`` (held out, scored once
with 7199015), ``3161-3180`` (held out, scored once with session 50's
final code, 729a1c6; 3110 fixed in session 51), ``3181-3200`` (held out,
scored once with 2f8523d; 3198 and 3200 fixed in session 51),
``3201-3220`` (held out, scored once with 7d595e1), ``3221-3240`` (held
out, scored once with session 51's final code, eb51371; 3166, 3194 and
3240 of the sets above fixed in session 52), ``3241-3260`` (held out,
scored once with 37daf38), ``3261-3280`` (held out, scored once with
session 52's final code, 103b265; 3256, 3262 and 3265 fixed in session 53),
``3281-3300`` (held out, scored once with df7b738; 3296 fixed in session
54), ``3301-3320`` and ``3321-3340`` (held out, scored once with session
54's final code, 4ba9866; 3332 fixed in session 55), ``3341-3360`` (held
out, scored once with e9b2832; 3086 of the sets above fixed in session 55),
``3361-3380`` (held out, scored once with e2dde73, session 55's final
code), ``3381-3400`` (held out, scored once with b372074, session 55's
final code; 3384 fixed in session 56, 3386 in session 57), ``3401-3420``
(held out, scored once with b68e360; 3401 and 3412 fixed in session 56),
``3421-3440`` (held out, scored once with 424ef8c, session 56's final code;
3421, 3436 and 3438 fixed in session 57), ``3441-3460`` (held out, scored
once with f7bf83e; 3452 fixed in session 59),
``3461-3480`` (held out, scored once with e47b55a, session 57's final code;
3477 fixed in session 58), ``3481-3500`` (held out, scored once with 33b4dab,
session 57's final code), ``3501-3520``, ``3521-3540`` and ``3541-3560`` (held out,
scored once each with 8f2aa93, session 58's final code; 3556 and 3560 fixed
in session 59), ``3561-3580`` (held out, scored once with b2d3ef0, session
58's final code), ``3581-3600``, ``3601-3620`` and ``3621-3640`` (held out,
scored once each with a34dec3, session 59's final code),
``--variant american --seeds 2001-2008`` (American snooker, held out, scored
once: session 19), and
``--cuts --seeds 402,404,406`` for camera cuts.

"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def seeds_of(text: str) -> list[int]:
    """``"301-305,310"`` -> ``[301, 302, 303, 304, 305, 310]``."""
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def main(argv: list[str] | None = None) -> int:
    """Make the clips; 1 if one could not be made."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--seeds", default="301-320")
    ap.add_argument("--strokes", type=int, default=5)
    ap.add_argument("--cuts", action="store_true")
    ap.add_argument("--variant", default="wpbsa",
                    help="the rules the clips are played and refereed by")
    args = ap.parse_args(argv)
    failed = 0
    for seed in seeds_of(args.seeds):
        prefix = "c" if args.cuts else "s"
        if args.variant != "wpbsa":
            prefix = f"{args.variant}_{prefix}"
        folder = args.out / f"{prefix}{seed}"
        if (folder / "truth.json").is_file():
            continue
        camera = "broadcast" if args.cuts or seed % 2 == 0 else "overhead"
        cmd = [sys.executable, "-m", "baulk.cli", "synth", "--seed", str(seed),
               "--camera", camera, "--strokes", str(args.strokes),
               "--variant", args.variant, "-o", str(folder),
               "--quiet", *(["--cuts"] if args.cuts else [])]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                              check=False)
        if proc.returncode:
            print(f"{folder}: {proc.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
            failed = 1
        else:
            print(f"made {folder}", flush=True)
    return failed


if __name__ == "__main__":
    raise SystemExit(main())
