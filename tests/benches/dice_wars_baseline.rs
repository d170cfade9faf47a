//! Dice Wars written plainly in Rust, the baseline the engine's benchmark is compared with: the
//! rules of `mods/dice_wars` and the greedy computer player, with plain structs and vectors.
//!
//! It starts from a position the engine generated (board adjacency, owners, dice), so both play
//! the same maps. Its random numbers come from its own ChaCha8 stream with the same
//! bounded-integer algorithm as the engine's `GameRng` (Lemire's multiply-and-reject), so when it
//! is seeded with the engine's stream position it rolls the same dice in the same order.
//!
//! Shared by `benches/dice_wars.rs` and `baseline_agrees.rs`.

#![allow(dead_code)]

use meeple_engine::game::GameState;
use meeple_engine::rules::Ruleset;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// A territory holds at most this many dice.
pub const MAX_DICE: u8 = 8;
/// Reinforcement dice with no room wait in a reserve of at most this many.
pub const RESERVE_CAP: u32 = 64;
/// The greedy player attacks only when the attack is worth at least this many dice (see
/// [`worth`]).
pub const MIN_WORTH: f64 = 0.0;
/// Once a table of three or more is down to two players, they get this many more turns.
pub const TURNS_WHEN_TWO_LEFT: u32 = 50;
/// The mod's safety net (`end.turn_limit`): after this many turns the game is drawn.
pub const TURN_LIMIT: u32 = 1000;
/// "Nobody" in `Game::owner`.
pub const NOBODY: u8 = u8::MAX;

/// A seeded random stream: ChaCha8, with the engine's algorithm for a number below `n`.
#[derive(Clone)]
pub struct Random {
    rng: ChaCha8Rng,
}

impl Random {
    pub fn from_seed(seed: u64) -> Self {
        Self { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// A stream at an exact position: 32 seed bytes, stream number, word position.
    pub fn at(seed: [u8; 32], stream: u64, word_pos: u128) -> Self {
        let mut rng = ChaCha8Rng::from_seed(seed);
        rng.set_stream(stream);
        rng.set_word_pos(word_pos);
        Self { rng }
    }

    /// A uniform number in `0..n`.
    pub fn below(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        let threshold = n.wrapping_neg() % n;
        loop {
            let product = u64::from(self.rng.next_u32()) * u64::from(n);
            if product as u32 >= threshold {
                return (product >> 32) as u32;
            }
        }
    }

    /// The sum of `count` six-sided dice.
    pub fn roll(&mut self, count: u8) -> u32 {
        (0..count).map(|_| 1 + self.below(6)).sum()
    }
}

/// The exact chance that `a` dice beat `d` dice (a higher sum; a tie goes to the defender), for
/// 0 to 8 dice each, computed once by convolution.
pub struct Odds {
    win: [[f64; 9]; 9],
}

impl Odds {
    pub fn new() -> Self {
        // sums[n][s]: the chance that n dice sum to s.
        let mut sums = vec![vec![1.0]];
        for n in 1..=MAX_DICE as usize {
            let previous: &Vec<f64> = &sums[n - 1];
            let mut next = vec![0.0; previous.len() + 5];
            for (i, p) in previous.iter().enumerate() {
                for face in 0..6 {
                    next[i + face] += p / 6.0;
                }
            }
            sums.push(next);
        }
        let mut win = [[0.0; 9]; 9];
        for (a, row) in win.iter_mut().enumerate() {
            for (d, cell) in row.iter_mut().enumerate() {
                // The lowest sum of n dice is n, at index 0.
                let mut p = 0.0;
                for (i, pa) in sums[a].iter().enumerate() {
                    for (j, pd) in sums[d].iter().enumerate() {
                        if a + i > d + j {
                            p += pa * pd;
                        }
                    }
                }
                *cell = p;
            }
        }
        Self { win }
    }

    pub fn chance(&self, attack: u8, defence: u8) -> f64 {
        self.win[attack as usize][defence as usize]
    }
}

impl Default for Odds {
    fn default() -> Self {
        Self::new()
    }
}

/// The map: which territories touch.
pub struct Map {
    pub neighbors: Vec<Vec<usize>>,
}

/// Everything that changes during a game.
#[derive(Clone)]
pub struct Game {
    pub owner: Vec<u8>,
    pub dice: Vec<u8>,
    /// Territories per player.
    pub territories: Vec<u32>,
    pub reserve: Vec<u32>,
    pub playing: Vec<bool>,
    /// The player to move.
    pub seat: usize,
    /// Turns started so far, counting every player's turn.
    pub turn: u32,
    /// The turn when only two players remained (0 until then).
    pub two_left_at: u32,
    pub result: Option<Outcome>,
    pub attacks: u32,
    pub rng: Random,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(u8),
    Draw,
}

/// What the mod's `ai.score` makes of an attack of `attack` dice against `defence` that wins
/// with `chance`: the defender's dice destroyed with the chance of winning, against the
/// attacker's dice lost but the one that stays. Written as the mod writes it, so that the
/// floating-point result, and therefore every tie, is the engine's.
pub fn worth(chance: f64, attack: u8, defence: u8) -> f64 {
    chance * f64::from(defence) - (1.0 - chance) * f64::from(attack - 1)
}

/// The greedy computer player, with its own random stream for breaking ties.
pub struct Greedy {
    pub rng: Random,
}

impl Greedy {
    pub fn new(seed: u64) -> Self {
        Self { rng: Random::from_seed(seed) }
    }

    /// The attack worth most (see [`worth`]), if it is worth at least [`MIN_WORTH`]; equal
    /// worths are broken at random (reservoir sampling, one draw per tie).
    pub fn choose(&mut self, map: &Map, odds: &Odds, game: &Game) -> Option<(usize, usize)> {
        let me = game.seat as u8;
        let mut best: Option<(f64, usize, usize)> = None;
        let mut ties = 0;
        for from in 0..game.owner.len() {
            if game.owner[from] != me || game.dice[from] < 2 {
                continue;
            }
            for &to in &map.neighbors[from] {
                if game.owner[to] == me {
                    continue;
                }
                let value = worth(odds.chance(game.dice[from], game.dice[to]), game.dice[from], game.dice[to]);
                if value < MIN_WORTH {
                    continue;
                }
                match best {
                    Some((b, _, _)) if value < b => {}
                    Some((b, _, _)) if value == b => {
                        ties += 1;
                        if self.rng.below(ties + 1) == 0 {
                            best = Some((value, from, to));
                        }
                    }
                    _ => {
                        best = Some((value, from, to));
                        ties = 0;
                    }
                }
            }
        }
        best.map(|(_, from, to)| (from, to))
    }
}

impl Game {
    /// One attack: both sides roll all their dice.
    pub fn attack(&mut self, from: usize, to: usize) {
        let me = self.seat as u8;
        self.attacks += 1;
        let attack = self.rng.roll(self.dice[from]);
        let defence = self.rng.roll(self.dice[to]);
        if attack > defence {
            let loser = self.owner[to];
            self.owner[to] = me;
            self.dice[to] = self.dice[from] - 1;
            self.territories[me as usize] += 1;
            if loser != NOBODY {
                self.territories[loser as usize] -= 1;
                if self.territories[loser as usize] == 0 {
                    self.eliminate(loser as usize);
                }
            }
            if self.territories[me as usize] as usize == self.owner.len() {
                self.result = Some(Outcome::Win(me));
            }
        }
        self.dice[from] = 1;
    }

    fn eliminate(&mut self, seat: usize) {
        self.playing[seat] = false;
        let left = self.playing.iter().filter(|&&p| p).count();
        if self.two_left_at == 0 && self.playing.len() >= 3 && left == 2 {
            self.two_left_at = self.turn;
        }
    }

    /// Ends the turn: reinforcement, the two-player turn limit, then the next player's turn.
    pub fn end_turn(&mut self, map: &Map) {
        let me = self.seat;
        let gained = self.largest_group(map, me as u8);
        self.reserve[me] = (self.reserve[me] + gained).min(RESERVE_CAP);
        self.reserve[me] = self.distribute(me as u8, self.reserve[me]);
        if self.two_left_at > 0 && self.turn >= self.two_left_at + TURNS_WHEN_TWO_LEFT {
            self.result = Some(Outcome::Draw);
            return;
        }
        let count = self.playing.len();
        let mut next = me;
        loop {
            next = (next + 1) % count;
            if self.playing[next] {
                break;
            }
        }
        self.seat = next;
        self.turn += 1;
        if self.turn > TURN_LIMIT {
            self.result = Some(Outcome::Draw);
        }
    }

    /// The size of a player's largest group of connected territories.
    pub fn largest_group(&self, map: &Map, seat: u8) -> u32 {
        let mut seen = vec![false; self.owner.len()];
        let mut stack = Vec::new();
        let mut largest = 0;
        for start in 0..self.owner.len() {
            if seen[start] || self.owner[start] != seat {
                continue;
            }
            seen[start] = true;
            stack.push(start);
            let mut size = 0;
            while let Some(space) = stack.pop() {
                size += 1;
                for &next in &map.neighbors[space] {
                    if !seen[next] && self.owner[next] == seat {
                        seen[next] = true;
                        stack.push(next);
                    }
                }
            }
            largest = largest.max(size);
        }
        largest
    }

    /// Adds `amount` dice one at a time to random territories of the player that have room;
    /// returns the dice that found no room.
    pub fn distribute(&mut self, seat: u8, amount: u32) -> u32 {
        let mut room: Vec<usize> =
            (0..self.owner.len()).filter(|&s| self.owner[s] == seat && self.dice[s] < MAX_DICE).collect();
        let mut left = amount;
        while left > 0 && !room.is_empty() {
            let i = self.rng.below(room.len() as u32) as usize;
            let space = room[i];
            self.dice[space] += 1;
            if self.dice[space] >= MAX_DICE {
                room.swap_remove(i);
            }
            left -= 1;
        }
        left
    }
}

/// Plays a game to its end, each player greedy.
pub fn play(map: &Map, odds: &Odds, mut game: Game, players: &mut [Greedy]) -> Game {
    while game.result.is_none() {
        match players[game.seat].choose(map, odds, &game) {
            Some((from, to)) => game.attack(from, to),
            None => game.end_turn(map),
        }
    }
    game
}

/// Copies a Dice Wars position out of the engine: the map, owners, dice, reserves, whose turn
/// it is, and the engine's random stream position (replace `rng` for an independent stream).
pub fn from_engine(rules: &Ruleset, state: &GameState) -> (Map, Game) {
    let dice = rules.counter_index("dice").expect("dice counter") as u16;
    let reserve = rules.resource_index("reserve").expect("reserve resource");
    let two_left_at = rules.var_index("two_left_at").expect("two_left_at var");
    let board = &state.board;
    let count = board.space_count();
    let map = Map {
        neighbors: (0..count as u32)
            .map(|space| board.neighbors(space).iter().map(|&(n, _)| n as usize).collect())
            .collect(),
    };
    let seats = state.seats.len();
    let mut territories = vec![0; seats];
    for &owner in &state.owners {
        if (owner as usize) < seats {
            territories[owner as usize] += 1;
        }
    }
    let snapshot = state.rng.snapshot();
    let seed: Vec<u8> =
        (0..32).map(|i| u8::from_str_radix(&snapshot.seed[2 * i..2 * i + 2], 16).expect("hex seed")).collect();
    let game = Game {
        owner: state.owners.clone(),
        dice: (0..count as u32).map(|s| state.counter(s, dice) as u8).collect(),
        territories,
        reserve: state.seats.iter().map(|s| s.resources[reserve] as u32).collect(),
        playing: state.seats.iter().map(|s| s.status == meeple_engine::game::SeatStatus::Active).collect(),
        seat: state.turn.seat as usize,
        turn: state.turn.number,
        two_left_at: state.vars[two_left_at] as u32,
        result: None,
        attacks: 0,
        rng: Random::at(
            seed.try_into().expect("32 seed bytes"),
            snapshot.stream,
            snapshot.word_pos.parse().expect("word position"),
        ),
    };
    (map, game)
}
