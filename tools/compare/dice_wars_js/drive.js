#!/usr/bin/env node
// Drives the original JavaScript Dice Wars (GAMEDESIGN, Taro Ito) headless: its own `game.js`
// (map generation, turn order, largest group) and `ai_default.js` (the original computer
// player) at every seat, with the rest of a game — battle, reinforcement, next player — done
// here the way the original's `main.js` does it, without its drawing, sounds and timers.
// Measures CPU time with `process.cpuUsage()` (user + system, the whole Node process, garbage
// collection included). Part of `run.sh` in this folder; none of the original's code is kept in
// this repository: `run.sh` downloads it at a pinned commit into `target/`.
//
//   node drive.js play --src DIR [--games N] [--seed S] [--warmup W] [--players P] [--native-random]
//       prints one JSON object: CPU of N map generations alone and of N whole games (the same
//       N maps, then play), and per-game turns, battles and territories.
//   node drive.js report FILE...
//       reads the JSON lines `run.sh` collected and prints the comparison.

'use strict';

const fs = require('fs');
const path = require('path');
const vm = require('vm');

function args(argv) {
    const out = {};
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (!a.startsWith('--')) { (out._ = out._ || []).push(a); continue; }
        const key = a.slice(2);
        if (key === 'native-random') { out[key] = true; continue; }
        out[key] = argv[++i];
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Random numbers. The original calls Math.random(); for repeatable games we replace it with a
// small seeded generator (mulberry32, a few integer operations a call — about what V8's own
// xorshift128+ costs), reseeded for every game from --seed and the game's index. With
// --native-random, Math.random stays V8's own (games then differ from run to run).
let state32 = 0;
function mulberry32() {
    state32 = (state32 + 0x6D2B79F5) | 0;
    let t = Math.imul(state32 ^ (state32 >>> 15), 1 | state32);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function gameSeed(seed, index) {
    let h = Math.imul((seed | 0) ^ 0x9E3779B9, 0x85EBCA6B) ^ Math.imul(index + 1, 0xC2B2AE35);
    h ^= h >>> 16; h = Math.imul(h, 0x7FEB352D); h ^= h >>> 15;
    return h | 0;
}

// ---------------------------------------------------------------------------------------------
// Loading the original. `game.js` builds its list of computer players from `ai_example`,
// `ai_defensive` and `ai_default` when a Game is made; only `ai_default` (the original's own
// player, moved by the mirror into its own file unchanged) is used: every seat gets it below.
function load(src) {
    const must = (name) => {
        const file = path.join(src, name);
        if (!fs.existsSync(file)) throw new Error(`${file}: missing (run run.sh, which downloads the original)`);
        return fs.readFileSync(file, 'utf8');
    };
    const unused = () => { throw new Error('only ai_default plays in this comparison'); };
    globalThis.ai_example = unused;
    globalThis.ai_defensive = unused;
    vm.runInThisContext(must('ai_default.js'), { filename: 'ai_default.js' });
    vm.runInThisContext(must('game.js'), { filename: 'game.js' });
    if (typeof Game !== 'function' || typeof ai_default !== 'function') {
        throw new Error(`${src}: game.js / ai_default.js do not define Game and ai_default`);
    }
}

// ---------------------------------------------------------------------------------------------
// One game, as main.js plays it with computers at every seat (its "spectate" mode): start_player
// → start_com (com_thinking) → start_battle / after_battle, or start_supply / supply_dice →
// next_player. The battle keeps main.js's two Battle objects, whose `usedice` order persists
// from battle to battle, and rolls exactly as main.js does: 8 random swaps of the dice order and
// 8 faces per side, of which the first `dice` in that order count.
const battle = [0, 1].map(() => ({ dmax: 0, deme: [0, 0, 0, 0, 0, 0, 0, 0], sum: 0, usedice: [0, 1, 2, 3, 4, 5, 6, 7] }));
const TURN_LIMIT = 100000; // a safety net only; the original has none and never needs it here

function roll(game) {
    const an = [game.area_from, game.area_to];
    for (let i = 0; i < 2; i++) {
        const b = battle[i];
        b.dmax = game.adat[an[i]].dice;
        for (let j = 0; j < 8; j++) {
            const r = Math.floor(Math.random() * 8);
            const tmp = b.usedice[j]; b.usedice[j] = b.usedice[r]; b.usedice[r] = tmp;
        }
        b.sum = 0;
        for (let j = 0; j < 8; j++) {
            b.deme[j] = Math.floor(Math.random() * 6);
            if (b.usedice[j] < b.dmax) b.sum += 1 + b.deme[j];
        }
    }
}

// after_battle: the result, the largest groups, the history, and whether one player is left.
function afterBattle(game) {
    const from = game.adat[game.area_from], to = game.adat[game.area_to];
    const arm0 = from.arm, arm1 = to.arm;
    const defeat = battle[0].sum > battle[1].sum ? 1 : 0;
    if (defeat > 0) {
        to.dice = from.dice - 1;
        from.dice = 1;
        to.arm = arm0;
        game.set_area_tc(arm0);
        game.set_area_tc(arm1);
    } else {
        from.dice = 1;
    }
    game.set_his(game.area_from, game.area_to, defeat);
    let c = 0;
    for (let i = 0; i < game.pmax; i++) if (game.player[i].area_tc > 0) c++;
    return c === 1;
}

// start_supply + supply_dice: the largest group's size into the stock (at most 64), then one die
// at a time to a random own territory with room, as long as there is stock and room.
function supply(game) {
    const pn = game.jun[game.ban];
    game.set_area_tc(pn);
    const p = game.player[pn];
    p.stock += p.area_tc;
    if (p.stock > game.STOCK_MAX) p.stock = game.STOCK_MAX;
    for (;;) {
        const list = [];
        let c = 0;
        for (let i = 0; i < game.AREA_MAX; i++) {
            if (game.adat[i].size == 0) continue;
            if (game.adat[i].arm != pn) continue;
            if (game.adat[i].dice >= 8) continue;
            list[c] = i;
            c++;
        }
        if (c == 0 || p.stock <= 0) return;
        p.stock--;
        const an = list[Math.floor(Math.random() * c)];
        game.adat[an].dice++;
        game.set_his(an, 0, 0);
    }
}

// next_player: the next seat that still owns a territory.
function nextPlayer(game) {
    for (let i = 0; i < game.pmax; i++) {
        game.ban++;
        if (game.ban >= game.pmax) game.ban = 0;
        if (game.player[game.jun[game.ban]].area_tc) break;
    }
}

// Plays the started game to its end; returns { turns, battles, winner, capped }.
function play(game) {
    let turns = 1, battles = 0;
    for (;;) {
        const ret = game.com_thinking();
        if (ret == 0) {
            supply(game);
            nextPlayer(game);
            turns++;
            if (turns > TURN_LIMIT) return { turns, battles, winner: -1, capped: true };
            continue;
        }
        roll(game);
        battles++;
        if (afterBattle(game)) return { turns, battles, winner: game.jun[game.ban], capped: false };
    }
}

function newGame(players) {
    const game = new Game();
    game.pmax = players;
    game.user = -1; // nobody: every seat is a computer
    for (let i = 0; i < 8; i++) game.ai[i] = ai_default;
    return game;
}

function territories(game) {
    let n = 0;
    for (let i = 1; i < game.AREA_MAX; i++) if (game.adat[i].size > 0) n++;
    return n;
}

function cpuMicros() {
    const u = process.cpuUsage();
    return u.user + u.system;
}

function runPlay(opts) {
    const src = opts.src;
    const games = Number(opts.games || 1000);
    const seed = Number(opts.seed || 1);
    const warmup = Number(opts.warmup || 200);
    const players = Number(opts.players || 4);
    const seeded = !opts['native-random'];
    if (!(games > 0) || !(players >= 2 && players <= 8)) throw new Error('--games > 0 and --players 2..8');
    load(src);
    if (seeded) Math.random = mulberry32;
    const reseed = (s) => { state32 = s; };

    // One Game object, reused as main.js reuses its one `game` for every new map and game.
    const game = newGame(players);

    // Warm-up (not timed): V8 compiles the hot functions; other seeds than the timed games.
    for (let i = 0; i < warmup; i++) {
        reseed(gameSeed(seed ^ 0x5bd1e995, i));
        game.make_map();
        game.start_game();
        play(game);
    }

    // N map generations alone: the same maps the games below start from.
    let t0 = cpuMicros();
    let check = 0;
    for (let i = 0; i < games; i++) {
        reseed(gameSeed(seed, i));
        game.make_map();
        check += game.adat[1].dice;
    }
    const mapsMicros = cpuMicros() - t0;

    // N whole games: map generation, start (turn order), play to the end.
    let turns = 0, battles = 0, areas = 0, capped = 0;
    const wins = new Array(8).fill(0);
    t0 = cpuMicros();
    for (let i = 0; i < games; i++) {
        reseed(gameSeed(seed, i));
        game.make_map();
        areas += territories(game);
        game.start_game();
        const r = play(game);
        turns += r.turns;
        battles += r.battles;
        if (r.capped) capped++; else wins[r.winner]++;
    }
    const gamesMicros = cpuMicros() - t0;

    const out = {
        side: 'js',
        node: process.version,
        games, seed, warmup, players,
        random: seeded ? 'mulberry32 seeded per game' : 'Math.random (V8)',
        maps_cpu_s: mapsMicros / 1e6,
        games_cpu_s: gamesMicros / 1e6,
        turns_mean: turns / games,
        battles_mean: battles / games,
        territories_mean: areas / games,
        capped,
        wins_by_colour: wins.slice(0, players),
        check,
    };
    process.stdout.write(JSON.stringify(out) + '\n');
}

// ---------------------------------------------------------------------------------------------
// The report: medians of the repetitions on each side, per game and per battle, and the ratio.
function median(xs) {
    const s = xs.slice().sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function runReport(files) {
    const rows = [];
    for (const f of files) {
        for (const line of fs.readFileSync(f, 'utf8').split('\n')) {
            if (line.trim()) rows.push(JSON.parse(line));
        }
    }
    const js = rows.filter((r) => r.side === 'js');
    const sim = rows.filter((r) => r.side === 'meeple');
    const count = rows.filter((r) => r.side === 'meeple_count');
    const fixed = rows.filter((r) => r.side === 'meeple_fixed');
    if (!js.length || !sim.length || !count.length) throw new Error('report: missing measurements');

    const n = js[0].games;
    const jsGame = median(js.map((r) => r.games_cpu_s)) / n;
    const jsMap = median(js.map((r) => r.maps_cpu_s)) / n;
    const jsPlay = jsGame - jsMap;
    const jsBattles = js[0].battles_mean;

    const fixedS = fixed.length ? median(fixed.map((r) => r.cpu_s)) : 0;
    const simGame = (median(sim.map((r) => r.cpu_s)) - fixedS) / sim[0].games;
    const cBattles = count.reduce((a, r) => a + r.battles, 0);
    const cGames = count.reduce((a, r) => a + r.games, 0);
    const cTurns = count.reduce((a, r) => a + r.turns, 0);
    const cActions = count.reduce((a, r) => a + r.actions, 0);
    const cSpaces = count.reduce((a, r) => a + r.spaces, 0);
    // The battles of the timed games: their actions (attacks and passes) times the share of
    // battles among the actions of the counted games.
    const battleShare = cBattles / cActions;
    const mBattles = sim[0].actions_mean * battleShare;

    const ms = (s) => (s * 1e3).toFixed(3) + ' ms';
    const us = (s) => (s * 1e6).toFixed(2) + ' µs';
    const spread = (xs) => `${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)} s`;
    const lines = [];
    lines.push(`Dice Wars, ${js[0].players} computer players, ${n} games a side, CPU time (user + system), median of ${js.length} runs a side`);
    const meta = rows.find((r) => r.side === 'meta');
    if (meta) {
        lines.push(`measured ${meta.date} on ${meta.cores} cores, ${meta.cpu}; load average ${meta.load_before} before, ` +
            `${meta.load_after} after; Meeple built from ${meta.commit}`);
    }
    lines.push('');
    lines.push(`original JS (${js[0].node}, game.js + ai_default.js, ${js[0].random}; ${js[0].warmup} warm-up games not timed)`);
    lines.push(`  per game, map generation in:  ${ms(jsGame)}   (runs: ${spread(js.map((r) => r.games_cpu_s))} for ${n} games)`);
    lines.push(`  of which map generation:      ${ms(jsMap)}`);
    lines.push(`  per game, map generation out: ${ms(jsPlay)}`);
    lines.push(`  per battle (map gen. in):     ${us(jsGame / jsBattles)}`);
    lines.push(`  a game: ${js[0].territories_mean.toFixed(1)} territories, ${js[0].turns_mean.toFixed(1)} turns, ${jsBattles.toFixed(1)} battles` +
        (js[0].capped ? `, ${js[0].capped} games stopped at the turn limit` : ''));
    lines.push('');
    lines.push(`Meeple (meeple sim ${sim[0].mod} --players ${sim[0].seats} --games ${sim[0].games} --seed ${sim[0].seed} --threads 1, release build; map generation in)`);
    lines.push(`  per game, map generation in:  ${ms(simGame)}   (runs: ${spread(sim.map((r) => r.cpu_s))} for ${sim[0].games} games; ` +
        `loading and start-up, ${fixedS.toFixed(3)} s with --games 0, subtracted)`);
    lines.push(`  per battle (map gen. in):     ${us(simGame / mBattles)}`);
    lines.push(`  a game: ${(cSpaces / cGames).toFixed(1)} territories, ${sim[0].turns_mean.toFixed(1)} turns, ${sim[0].actions_mean.toFixed(1)} actions (attacks and passes)`);
    lines.push(`  battles: ${mBattles.toFixed(1)} a game = actions × ${battleShare.toFixed(4)}, the share of battles among the actions of ` +
        `${cGames} other games of the same rules and players, counted untimed (meeple test, g:play("greedy"): ` +
        `${(cTurns / cGames).toFixed(1)} turns, ${(cActions / cGames).toFixed(1)} actions, ${(cBattles / cGames).toFixed(1)} battles a game)`);
    lines.push('');
    lines.push(`games per CPU-second: original JS ${(1 / jsGame).toFixed(0)}, Meeple ${(1 / simGame).toFixed(0)}`);
    lines.push(`ratio, original JS / Meeple: ${(jsGame / simGame).toFixed(1)}× per game, ${((jsGame / jsBattles) / (simGame / mBattles)).toFixed(1)}× per battle (map generation in on both sides)`);
    process.stdout.write(lines.join('\n') + '\n');
}

function main() {
    const [mode, ...rest] = process.argv.slice(2);
    const opts = args(rest);
    if (mode === 'play') {
        if (!opts.src) throw new Error('play: --src DIR (the folder with game.js and ai_default.js)');
        runPlay(opts);
    } else if (mode === 'report') {
        runReport(opts._ || []);
    } else {
        process.stderr.write('usage: node drive.js play --src DIR [--games N] [--seed S] [--warmup W] [--players P] [--native-random]\n' +
            '       node drive.js report FILE...\n');
        process.exit(2);
    }
}

try {
    main();
} catch (e) {
    process.stderr.write(`drive.js: ${e.message}\n`);
    process.exit(1);
}
