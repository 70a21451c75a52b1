#!/usr/bin/env python3
"""Print the moves a GTP engine chooses over many positions, one per line.

Used to show that a refactoring changed no behaviour: run it on the
engine before and after, with a fixed number of playouts and no clock,
and diff the two traces.

    tests/tools/genmove_trace.py --games 12 --plies 30 -- \\
        target/release/katachi gtp --playouts 200 > after.txt

Each game starts on an empty board of the given size, plays a short
random opening chosen by a seeded generator (game g uses seed g; an
opening move the engine refuses is replaced by another), then lets the
engine play both sides for PLIES moves. Every line is
`game size ply colour move`. The engine plays its own moves, so the
first move that differs changes the rest of that game: compare the first
difference, not the count.
"""
import argparse
import random
import subprocess
import sys

LETTERS = "ABCDEFGHJKLMNOPQRST"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--plies", type=int, default=30)
    ap.add_argument("--opening", type=int, default=4, help="random moves before the engine plays")
    ap.add_argument("--sizes", default="9,13,19", help="board sizes, used in turn")
    ap.add_argument("engine", nargs="+")
    args = ap.parse_args()

    proc = subprocess.Popen(args.engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def gtp(cmd):
        proc.stdin.write(cmd + "\n")
        proc.stdin.flush()
        lines = []
        while True:
            line = proc.stdout.readline()
            if line == "":
                sys.exit(f"engine closed the connection after `{cmd}`")
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.strip())
        reply = " ".join(lines)
        return reply[0] == "=", reply[1:].strip()

    sizes = [int(s) for s in args.sizes.split(",")]
    for g in range(args.games):
        size = sizes[g % len(sizes)]
        rng = random.Random(g)
        gtp(f"boardsize {size}")
        gtp("clear_board")
        colours = ["b", "w"]
        ply = 0
        while ply < args.opening:
            c = colours[ply % 2]
            v = f"{LETTERS[rng.randrange(size)]}{rng.randrange(size) + 1}"
            ok, _ = gtp(f"play {c} {v}")
            if ok:
                print(f"{g} {size} {ply} {c} {v} opening")
                ply += 1
        for _ in range(args.plies):
            c = colours[ply % 2]
            ok, move = gtp(f"genmove {c}")
            if not ok:
                sys.exit(f"game {g} ply {ply}: genmove failed: {move}")
            print(f"{g} {size} {ply} {c} {move}", flush=True)
            ply += 1
    gtp("quit")


if __name__ == "__main__":
    main()
