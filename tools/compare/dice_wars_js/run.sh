#!/usr/bin/env bash
# Side-by-side comparison with the original JavaScript Dice Wars (GAMEDESIGN, Taro Ito), on CPU
# time, in one run:
#
#   tools/compare/dice_wars_js/run.sh [--games N] [--seed S] [--runs R] [--warmup W] [--players P]
#
# 1. Obtains the original's game.js and ai_default.js at a pinned commit of a public mirror into
#    target/compare/dice_wars_js/ (nothing of it is kept in this repository); checks their hashes.
# 2. Builds Meeple (cargo build --release -p meeple) unless MEEPLE names a binary.
# 3. R times, alternating: N four-player games of the original with its own computer player at
#    every seat, driven headless by drive.js (CPU of Node's process.cpuUsage around the games;
#    map generation timed apart too), then `meeple sim --threads 1` on N games (CPU of the child
#    process from bash's `time`, minus a `--games 0` run for loading and start-up).
# 4. Counts Meeple's battles in a separate, untimed run (`meeple test` on a copy of the mod with
#    count_battles.lua), since `meeple sim` reports attacks and passes together as actions.
# 5. Prints the comparison (drive.js report); every measurement is kept in
#    target/compare/dice_wars_js/results.jsonl.
#
# Environment: DICE_WARS_JS_REPO — another git URL or local clone of the mirror (offline use);
# MEEPLE — a meeple binary to use instead of building one; NODE — the node to use.
set -euo pipefail

MIRROR_URL=https://github.com/chrisraff/dicewarsjs.git
RAW_URL=https://raw.githubusercontent.com/chrisraff/dicewarsjs
COMMIT=2fd03205a09db346e9fe7836bfcf13c330093708   # 2020-05-27; game.js and ai_default.js unchanged since
SHA_GAME=2cd097417be1cd6cd1d0d9b0f422ca1b6d1892e202e0e4b893f37cb6d25236ad
SHA_AI=0f0dfd004a5e6952faec5bd1083beac627eacd85233dec5274e7980ba5edb698

games=2000 seed=1 runs=3 warmup=200 players=4
while [ $# -gt 0 ]; do
    case "$1" in
        --games) games=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --warmup) warmup=$2; shift 2 ;;
        --players) players=$2; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cache=$root/target/compare/dice_wars_js
src=$cache/original-$COMMIT
node=${NODE:-node}
mkdir -p "$cache"

command -v "$node" >/dev/null || { echo "run.sh: Node.js is needed (node not found)" >&2; exit 2; }

sha() { sha256sum "$1" | cut -d' ' -f1; }
have_original() {
    [ -f "$src/game.js" ] && [ -f "$src/ai_default.js" ] &&
        [ "$(sha "$src/game.js")" = "$SHA_GAME" ] && [ "$(sha "$src/ai_default.js")" = "$SHA_AI" ]
}

# --- 1. The original, at the pinned commit -------------------------------------------------
if ! have_original; then
    rm -rf "$src.part"; mkdir -p "$src.part"
    got=no
    repo=${DICE_WARS_JS_REPO:-}
    if [ -z "$repo" ]; then
        echo "downloading game.js and ai_default.js of $MIRROR_URL at $COMMIT" >&2
        if curl -fsSL --max-time 60 -o "$src.part/game.js" "$RAW_URL/$COMMIT/game.js" &&
            curl -fsSL --max-time 60 -o "$src.part/ai_default.js" "$RAW_URL/$COMMIT/ai_default.js"; then
            got=yes
        else
            repo=$MIRROR_URL
        fi
    fi
    if [ "$got" = no ]; then
        echo "cloning $repo for $COMMIT" >&2
        rm -rf "$cache/clone"
        if git clone --quiet --no-checkout "$repo" "$cache/clone" 2>"$cache/clone.log" &&
            git -C "$cache/clone" show "$COMMIT:game.js" >"$src.part/game.js" 2>>"$cache/clone.log" &&
            git -C "$cache/clone" show "$COMMIT:ai_default.js" >"$src.part/ai_default.js" 2>>"$cache/clone.log"; then
            got=yes
        fi
        rm -rf "$cache/clone"
    fi
    if [ "$got" = no ]; then
        rm -rf "$src.part"
        echo "run.sh: cannot obtain the original Dice Wars ($MIRROR_URL at $COMMIT): no network?" >&2
        echo "  (curl and git clone failed; see $cache/clone.log. With a local clone of the mirror:" >&2
        echo "   DICE_WARS_JS_REPO=/path/to/dicewarsjs $0)" >&2
        exit 3
    fi
    rm -rf "$src"; mv "$src.part" "$src"
    if ! have_original; then
        echo "run.sh: $src: game.js or ai_default.js does not have the expected SHA-256" >&2
        echo "  (expected $SHA_GAME and $SHA_AI): not the pinned original" >&2
        exit 4
    fi
fi

# --- 2. Meeple ------------------------------------------------------------------------------
if [ -z "${MEEPLE:-}" ]; then
    (cd "$root" && cargo build --release -p meeple) >&2
    MEEPLE=$root/target/release/meeple
fi
[ -x "$MEEPLE" ] || { echo "run.sh: $MEEPLE is not an executable meeple binary" >&2; exit 2; }

# --- 3. The timed runs, alternating ---------------------------------------------------------
results=$cache/results.jsonl
: >"$results"
mod=$root/mods/dice_wars

# Runs "$@" with its output to $cache/out; sets cpu to the child's user + system seconds.
cpu=
timed() {
    local TIMEFORMAT='%3U %3S' t
    t=$( { time "$@" >"$cache/out" 2>"$cache/err"; } 2>&1 ) || { cat "$cache/err" >&2; exit 1; }
    cpu=$(awk '{ printf "%.3f", $1 + $2 }' <<<"$t")
}

cpu_model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//; s/"//g')
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "machine: $(nproc) cores, $cpu_model; load $load_before" >&2
for r in $(seq 1 "$runs"); do
    echo "run $r of $runs: original JS, $games games" >&2
    "$node" "$here/drive.js" play --src "$src" --games "$games" --seed "$seed" --warmup "$warmup" \
        --players "$players" >>"$results"

    echo "run $r of $runs: meeple sim, --games 0 and $games games" >&2
    timed "$MEEPLE" sim "$mod" --players "$players" --games 0 --seed "$seed" --threads 1 --json
    echo "{\"side\":\"meeple_fixed\",\"cpu_s\":$cpu}" >>"$results"
    timed "$MEEPLE" sim "$mod" --players "$players" --games "$games" --seed "$seed" --threads 1 --json
    "$node" -e '
        const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
        console.log(JSON.stringify({ side: "meeple", cpu_s: Number(process.argv[2]), mod: r.mod, games: r.games,
            seed: r.seed, seats: r.seats, turns_mean: r.turns_mean, actions_mean: r.actions_mean,
            wall_s: r.timing.seconds }));' "$cache/out" "$cpu" >>"$results"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$root" diff --quiet HEAD -- engine tools mods 2>/dev/null || commit="$commit + uncommitted changes"
echo "{\"side\":\"meta\",\"date\":\"$(date -u +%F)\",\"cpu\":\"$cpu_model\",\"cores\":$(nproc),\"load_before\":\"$load_before\",\"load_after\":\"$load_after\",\"commit\":\"$commit\"}" >>"$results"

# --- 4. Meeple's battles, counted (not timed) -------------------------------------------------
count_mod=$cache/count_mod/dice_wars
rm -rf "$cache/count_mod"; mkdir -p "$count_mod/tests"
for f in "$mod"/*.toml; do cp "$f" "$count_mod/"; done
sed -e "s/@GAMES@/$games/; s/@SEED@/$seed/; s/@SEATS@/$players/" "$here/count_battles.lua" \
    >"$count_mod/tests/count_battles.lua"
echo "counting Meeple's battles: $games games (meeple test on a copy of the mod)" >&2
"$MEEPLE" test "$count_mod" >"$cache/count.out" 2>&1 || { cat "$cache/count.out" >&2; exit 1; }
grep -o '{"side":"meeple_count"[^}]*}' "$cache/count.out" >>"$results"

# --- 5. The report ----------------------------------------------------------------------------
"$node" "$here/drive.js" report "$results"
echo "(measurements: $results)"
