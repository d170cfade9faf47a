//! Dunes of Terror's seven weapons deal the damage the rules text gives. The exact damage
//! distribution of every weapon at every distance in its range is computed here from the rules
//! text alone (`dunes-of-terror.txt`; plain convolution of d6 sums, no engine call); attacks
//! played through the engine and the `dunes_of_terror` mod must then
//!
//! - deal, for every face sequence forced on them, exactly the damage the text gives for it, and
//!   average exactly the expected damage over all sequences (every weapon but the full machine
//!   gun, whose 6^10 sequences are too many; it is enumerated with 1 to 3 bullets);
//! - average the expected damage within four standard errors over seeded attacks;
//! - roll no more dice than bullets left, fire one bullet per die, and reach exactly their range;
//! - come, when bought, with one clip.

use meeple_engine::game::record::from_record;
use meeple_engine::game::state::HeldItem;
use meeple_engine::game::{Action, ActionRecord, Engine, Event, Events, GameSetup, GameState, Method};
use meeple_engine::rng::GameRng;
use meeple_engine::rules::Ruleset;
use meeple_tests::load;
use serde_json::json;

/// A weapon as the rules text describes it.
struct Weapon {
    id: &'static str,
    /// Range in steps.
    range: u32,
    /// Dice rolled per attack at most (the machine gun's first roll).
    dice: u32,
    /// Bullets in one clip; 0 for the knife, which uses none.
    clip: i64,
    /// The price; 0 for the weapons every character starts with.
    price: i64,
}

/// The seven weapons, figures from the rules text.
const WEAPONS: [Weapon; 7] = [
    Weapon { id: "knife", range: 1, dice: 1, clip: 0, price: 0 },
    Weapon { id: "pistol", range: 2, dice: 1, clip: 6, price: 0 },
    Weapon { id: "shotgun", range: 3, dice: 1, clip: 8, price: 10 },
    Weapon { id: "submachine_gun", range: 3, dice: 2, clip: 10, price: 15 },
    Weapon { id: "assault_rifle", range: 4, dice: 3, clip: 15, price: 20 },
    Weapon { id: "sniper_rifle", range: 5, dice: 1, clip: 5, price: 25 },
    Weapon { id: "machine_gun", range: 3, dice: 5, clip: 20, price: 30 },
];

fn weapon(id: &str) -> &'static Weapon {
    WEAPONS.iter().find(|w| w.id == id).expect("one of the seven weapons")
}

/// Dice a weapon rolls (its first roll) with `bullets` left: as many as it fires, never more than
/// the bullets left; the knife always rolls one.
fn dice_fired(weapon: &Weapon, bullets: i64) -> u32 {
    if weapon.clip == 0 { weapon.dice } else { weapon.dice.min(bullets as u32) }
}

/// The damage the rules text gives for the faces rolled: `rolls[0]` is the first roll, and
/// `rolls[1]` the machine gun's second roll (absent when no bullet hit).
fn damage_from_faces(weapon: &Weapon, distance: u32, rolls: &[Vec<u32>]) -> i64 {
    let first: i64 = rolls[0].iter().map(|&f| i64::from(f)).sum();
    match weapon.id {
        "knife" => first,
        "pistol" => 2 * first,
        // Times 3 at one step, 2 at two, 1 at three.
        "shotgun" => first * (4 - i64::from(distance)),
        "submachine_gun" => 2 * first,
        "assault_rifle" => 3 * first,
        "sniper_rifle" => [0, 0, 0, 25, 50, 75][rolls[0][0] as usize - 1],
        "machine_gun" => {
            let hits = rolls[0].iter().filter(|&&f| f >= 4).count();
            if hits == 0 {
                assert_eq!(rolls.len(), 1, "no second roll when every bullet missed: {rolls:?}");
                return 0;
            }
            assert_eq!(rolls.len(), 2, "one second roll: {rolls:?}");
            assert_eq!(rolls[1].len(), hits, "one die per hit in the second roll: {rolls:?}");
            3 * rolls[1].iter().map(|&f| i64::from(f)).sum::<i64>()
        }
        other => unreachable!("{other}"),
    }
}

/// An exact distribution of damage: `dist[x]` is P(damage = x).
type Dist = Vec<f64>;

/// The sum of `n` d6.
fn dice_sum(n: u32) -> Dist {
    meeple_tests::d6_sum_distribution(n as usize)
}

/// The distribution of `k * x`.
fn times(dist: &Dist, k: usize) -> Dist {
    let mut out = vec![0.0; (dist.len() - 1) * k + 1];
    for (x, p) in dist.iter().enumerate() {
        out[x * k] += p;
    }
    out
}

/// Adds `weight * part` into `into`.
fn add_weighted(into: &mut Dist, part: &Dist, weight: f64) {
    if into.len() < part.len() {
        into.resize(part.len(), 0.0);
    }
    for (x, p) in part.iter().enumerate() {
        into[x] += weight * p;
    }
}

fn binomial(n: u32, k: u32) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

/// The exact damage distribution of one attack, from the rules text.
fn exact(weapon: &Weapon, distance: u32, bullets: i64) -> Dist {
    let n = dice_fired(weapon, bullets);
    match weapon.id {
        "knife" => dice_sum(1),
        "pistol" => times(&dice_sum(1), 2),
        "shotgun" => times(&dice_sum(1), 4 - distance as usize),
        "submachine_gun" => times(&dice_sum(n), 2),
        "assault_rifle" => times(&dice_sum(n), 3),
        "sniper_rifle" => {
            let mut dist = vec![0.0; 76];
            for damage in [0, 0, 0, 25, 50, 75] {
                dist[damage] += 1.0 / 6.0;
            }
            dist
        }
        "machine_gun" => {
            // Each of the n dice hits on 4, 5 or 6 (one chance in two); h hits roll h dice.
            let mut dist = Vec::new();
            for hits in 0..=n {
                let p = binomial(n, hits) / 2f64.powi(n as i32);
                add_weighted(&mut dist, &times(&dice_sum(hits), 3), p);
            }
            dist
        }
        other => unreachable!("{other}"),
    }
}

fn mean(dist: &Dist) -> f64 {
    dist.iter().enumerate().map(|(x, p)| x as f64 * p).sum()
}

fn variance(dist: &Dist) -> f64 {
    let m = mean(dist);
    dist.iter().enumerate().map(|(x, p)| (x as f64 - m).powi(2) * p).sum()
}

/// The distance between two tiles of the zig-zag grid from their labels (`C07`: column C, row
/// 7; odd rows sit half a tile to the right), steps in any of the six directions: the usual
/// cube-coordinate distance of an "odd-r" offset grid, written here independently of the engine.
fn label_distance(a: &str, b: &str) -> u32 {
    let cube = |label: &str| {
        let col = i64::from(label.as_bytes()[0] - b'A');
        let row: i64 = label[1..].parse().unwrap();
        let x = col - (row - (row & 1)) / 2;
        let z = row;
        (x, -x - z, z)
    };
    let (a, b) = (cube(a), cube(b));
    ((a.0 - b.0).abs().max((a.1 - b.1).abs()).max((a.2 - b.2).abs())) as u32
}

/// A two-character game on the real 26 x 100 map, the attacker's turn, and land tiles at every
/// distance from the attacker's tile.
struct Arena {
    rules: std::sync::Arc<Ruleset>,
    engine: Engine,
    state: GameState,
    /// The attacking and the attacked piece.
    me: usize,
    foe: usize,
    health: usize,
    /// `targets[d]`: a land tile `d` steps from the origin (d = 1..=6).
    targets: Vec<u32>,
}

const SEED: u64 = 2024;

fn arena() -> Arena {
    arena_of("dunes_of_terror")
}

/// [`arena`] in a mod of the Dunes of Terror family (the base game or a variant).
fn arena_of(mod_id: &str) -> Arena {
    let rules = load(mod_id);
    let mut engine = Engine::new(rules.clone()).unwrap();
    let setup = GameSetup::new(&rules, SEED, 2, "human");
    let mut state = engine.new_game(&setup, &mut Events::discard()).unwrap();
    assert_eq!(state.board.space_count(), 26 * 100);
    let grass = rules.terrain_index("grass").unwrap();
    let is_land = |state: &GameState, s: u32| state.board.space(s).terrain as usize == grass;
    let me = state.pieces.iter().position(|p| p.owner == 0 && p.alive).unwrap();
    let foe = state.pieces.iter().position(|p| p.owner == 1 && p.alive).unwrap();
    assert_ne!(state.seats[0].side, state.seats[1].side, "the two characters are enemies");
    // The first land tile in the middle of the map with land at every distance 1..=6.
    let mut chosen = None;
    for origin in state.board.space_ids() {
        let space = state.board.space(origin);
        if !is_land(&state, origin) || !(8..18).contains(&space.col) || !(40..60).contains(&space.row) {
            continue;
        }
        let mut targets = vec![origin];
        for d in 1..=6 {
            match state.board.space_ids().find(|&t| is_land(&state, t) && state.board.distance(origin, t) == Some(d)) {
                Some(t) => targets.push(t),
                None => break,
            }
        }
        if targets.len() == 7 {
            chosen = Some((origin, targets));
            break;
        }
    }
    let (origin, targets) = chosen.expect("land at every distance from some tile");
    for (d, &t) in targets.iter().enumerate() {
        let (a, b) = (&state.board.space(origin).label, &state.board.space(t).label);
        assert_eq!(label_distance(a, b), d as u32, "{a} to {b}: the rules' distance");
    }
    state.pieces[me].space = origin;
    state.pieces[foe].space = targets[1];
    state.turn.seat = 0;
    let health = rules.stat_index("health").unwrap();
    assert_eq!(state.pieces[foe].stats[health], 100);
    Arena { rules, engine, state, me, foe, health, targets }
}

impl Arena {
    /// The attacker holding `weapon` with `bullets`, the target `distance` steps away at full
    /// health; and the weapon's position among the attacker's items.
    fn armed(&self, weapon: &Weapon, distance: u32, bullets: i64) -> (GameState, usize) {
        let mut state = self.state.clone();
        state.pieces[self.foe].space = self.targets[distance as usize];
        let item = self.rules.item_index(weapon.id).unwrap() as u16;
        let items = &mut state.pieces[self.me].items;
        let position = match items.iter().position(|h| h.item == item) {
            // The knife and the pistol every character starts with.
            Some(position) => position,
            None => {
                items.push(HeldItem { item, charges: 0 });
                items.len() - 1
            }
        };
        items[position].charges = bullets;
        (state, position)
    }

    fn action(&self, state: &GameState, record: serde_json::Value) -> Result<Action, String> {
        let record: ActionRecord = serde_json::from_value(record).unwrap();
        from_record(&self.rules, state, &record).map(|(seat, action)| {
            assert_eq!(seat, 0);
            action
        })
    }

    /// The attack's two steps: roll with the weapon at `position`, then hit the foe.
    fn attack_steps(&mut self, start: &GameState, position: usize) -> (Action, Action) {
        let weapon = json!({ "piece": self.me + 1, "position": position + 1 });
        let roll = self.action(start, json!({ "action": "attack", "weapon": weapon })).unwrap();
        let mut rolled = start.clone();
        self.engine.apply(&mut rolled, &roll, &mut Events::discard()).unwrap();
        let hit =
            self.action(&rolled, json!({ "action": "attack", "weapon": weapon, "target": self.foe + 1 })).unwrap();
        (roll, hit)
    }

    /// Plays both steps of an attack; returns the damage done, the bullets left after the roll,
    /// and the faces of every roll (when `events` records).
    fn attack(
        &mut self,
        state: &mut GameState,
        steps: (Action, Action),
        position: usize,
        events: &mut Events,
    ) -> (i64, i64, Vec<Vec<u32>>) {
        let before = state.pieces[self.foe].stats[self.health];
        self.engine.apply(state, &steps.0, events).unwrap();
        let left = state.pieces[self.me].items[position].charges;
        self.engine.apply(state, &steps.1, events).unwrap();
        assert_eq!(state.pieces[self.me].items[position].charges, left, "bullets are spent in the roll only");
        let damage = before - state.pieces[self.foe].stats[self.health];
        let rolls = events
            .take()
            .into_iter()
            .filter_map(|e| match e {
                Event::Rolled { sides, faces, .. } => {
                    assert_eq!(sides, 6);
                    Some(faces)
                }
                _ => None,
            })
            .collect();
        (damage, left, rolls)
    }
}

/// Every face sequence a weapon can roll, forced one by one: each deals exactly the damage the
/// text gives for it, and their mean (each sequence of k faces weighs 6^-k) is exactly the
/// expected damage. The machine gun is enumerated with 1, 2 and 3 bullets.
#[test]
fn every_forced_roll_deals_the_damage_of_the_text() {
    let mut arena = arena();
    let mut cases = Vec::new();
    for weapon in &WEAPONS {
        for distance in 1..=weapon.range {
            if weapon.id == "machine_gun" {
                cases.extend((1..=3).map(|bullets| (weapon, distance, bullets)));
            } else {
                cases.push((weapon, distance, weapon.clip));
            }
        }
    }
    // Assault rifle and submachine gun with fewer bullets than dice.
    cases.push((weapon("assault_rifle"), 2, 2));
    cases.push((weapon("assault_rifle"), 4, 1));
    cases.push((weapon("submachine_gun"), 3, 1));
    let mut sequences = 0;
    for (weapon, distance, bullets) in cases {
        let (start, position) = arena.armed(weapon, distance, bullets);
        let steps = arena.attack_steps(&start, position);
        let n = dice_fired(weapon, bullets);
        let mut expected_sum = 0.0;
        for first in 0..6u32.pow(n) {
            let first: Vec<u32> = (0..n).map(|i| first / 6u32.pow(i) % 6 + 1).collect();
            let second_dice = if weapon.id == "machine_gun" { first.iter().filter(|&&f| f >= 4).count() } else { 0 };
            for second in 0..6u32.pow(second_dice as u32) {
                let second: Vec<u32> = (0..second_dice as u32).map(|i| second / 6u32.pow(i) % 6 + 1).collect();
                let mut state = start.clone();
                state.forced_faces.extend(first.iter().chain(&second));
                let rng = state.rng.clone();
                let mut events = Events::recording();
                let (damage, left, rolls) = arena.attack(&mut state, steps, position, &mut events);
                let mut want = vec![first.clone()];
                if !second.is_empty() {
                    want.push(second.clone());
                }
                assert_eq!(rolls, want, "{} at {distance}: the forced faces, rolled in order", weapon.id);
                assert!(state.forced_faces.is_empty());
                assert_eq!(state.rng, rng, "{}: no die beyond the forced ones", weapon.id);
                let expected = damage_from_faces(weapon, distance, &rolls);
                assert_eq!(damage, expected, "{} at {distance} with {bullets} bullets, rolls {rolls:?}", weapon.id);
                let fired = if weapon.clip == 0 { 0 } else { i64::from(n) };
                assert_eq!(left, bullets - fired, "{}: one bullet per die", weapon.id);
                expected_sum += damage as f64 / 6f64.powi((first.len() + second.len()) as i32);
                sequences += 1;
            }
        }
        let exact_mean = mean(&exact(weapon, distance, bullets));
        assert!(
            (expected_sum - exact_mean).abs() < 1e-9,
            "{} at {distance} with {bullets} bullets: mean over every roll {expected_sum}, exact {exact_mean}",
            weapon.id
        );
    }
    println!("{sequences} forced face sequences");
}

/// The rules text's machine-gun example: 5 bullets; 3, 3, 4, 4, 4 (three hits), then 3, 3, 3:
/// 9 times 3 = 27 damage, and the five bullets are spent.
#[test]
fn the_machine_gun_example_of_the_text_deals_27() {
    let mut arena = arena();
    let mg = weapon("machine_gun");
    for distance in 1..=mg.range {
        let (mut state, position) = arena.armed(mg, distance, 5);
        let steps = arena.attack_steps(&state, position);
        state.forced_faces.extend([3, 3, 4, 4, 4, 3, 3, 3]);
        let mut events = Events::recording();
        let (damage, left, rolls) = arena.attack(&mut state, steps, position, &mut events);
        assert_eq!(rolls, vec![vec![3, 3, 4, 4, 4], vec![3, 3, 3]]);
        assert_eq!(damage, 27);
        assert_eq!(state.pieces[arena.foe].stats[arena.health], 73);
        assert_eq!(left, 0);
        assert!(state.forced_faces.is_empty());
    }
}

/// Seeded attacks through the engine average the exact expected damage within four standard
/// errors (of the sample), at every distance in range, and with fewer bullets than dice.
#[test]
fn seeded_attacks_average_the_expected_damage() {
    const TRIALS: u64 = 20_000;
    /// Trials per case whose rolls are recorded and checked face by face.
    const CHECKED: u64 = 500;
    let mut arena = arena();
    let mut cases: Vec<(&Weapon, u32, i64)> = Vec::new();
    for weapon in &WEAPONS {
        cases.extend((1..=weapon.range).map(|d| (weapon, d, weapon.clip)));
    }
    cases.push((weapon("submachine_gun"), 2, 1));
    cases.push((weapon("assault_rifle"), 3, 2));
    cases.push((weapon("machine_gun"), 2, 3));
    let mut report = vec![format!(
        "{:<15} {:>4} {:>7} {:>9} {:>8} {:>10} {:>7} {:>6}",
        "weapon", "dist", "bullets", "exact", "sd", "simulated", "se", "z"
    )];
    let mut failures = Vec::new();
    for (case, &(weapon, distance, bullets)) in cases.iter().enumerate() {
        let dist = exact(weapon, distance, bullets);
        assert!((dist.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let (exact_mean, exact_sd) = (mean(&dist), variance(&dist).sqrt());
        let (start, position) = arena.armed(weapon, distance, bullets);
        let steps = arena.attack_steps(&start, position);
        let fired = if weapon.clip == 0 { 0 } else { i64::from(dice_fired(weapon, bullets)) };
        let (mut sum, mut sum_squares) = (0.0, 0.0);
        for trial in 0..TRIALS {
            let mut state = start.clone();
            state.rng = GameRng::from_seed_and_stream(SEED, case as u64 * 1_000_000 + trial);
            let mut events = if trial < CHECKED { Events::recording() } else { Events::discard() };
            let (damage, left, rolls) = arena.attack(&mut state, steps, position, &mut events);
            assert_eq!(left, bullets - fired, "{}: bullets after the roll", weapon.id);
            if trial < CHECKED {
                assert_eq!(rolls[0].len(), dice_fired(weapon, bullets) as usize, "{}: dice rolled", weapon.id);
                assert_eq!(damage, damage_from_faces(weapon, distance, &rolls), "{} rolls {rolls:?}", weapon.id);
            }
            let damage = damage as f64;
            sum += damage;
            sum_squares += damage * damage;
        }
        let n = TRIALS as f64;
        let simulated = sum / n;
        let sample_variance = (sum_squares - n * simulated * simulated) / (n - 1.0);
        let se = (sample_variance / n).sqrt();
        let z = (simulated - exact_mean) / se;
        report.push(format!(
            "{:<15} {distance:>4} {bullets:>7} {exact_mean:>9.4} {exact_sd:>8.4} {simulated:>10.4} {se:>7.4} {z:>6.2}",
            weapon.id
        ));
        if z.abs() > 4.0 {
            failures.push(report.last().unwrap().clone());
        }
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "more than four standard errors from the exact mean:\n{}", failures.join("\n"));
}

/// A weapon reaches exactly its range, and one with no bullets left cannot attack (the knife
/// needs none).
#[test]
fn weapons_reach_exactly_their_range_and_need_bullets() {
    let mut arena = arena();
    for weapon in &WEAPONS {
        for distance in 1..=6 {
            let (state, position) = arena.armed(weapon, distance, weapon.clip);
            let record = json!({ "action": "attack", "weapon": { "piece": arena.me + 1, "position": position + 1 } });
            let roll = arena.action(&state, record).unwrap();
            let result = arena.engine.apply(&mut state.clone(), &roll, &mut Events::discard());
            assert_eq!(result.is_ok(), distance <= weapon.range, "{} at {distance}: {result:?}", weapon.id);
        }
        let (state, position) = arena.armed(weapon, 1, 0);
        let record = json!({ "action": "attack", "weapon": { "piece": arena.me + 1, "position": position + 1 } });
        let roll = arena.action(&state, record).unwrap();
        let result = arena.engine.apply(&mut state.clone(), &roll, &mut Events::discard());
        assert_eq!(result.is_ok(), weapon.clip == 0, "{} with no bullets: {result:?}", weapon.id);
    }
}

/// Every character starts with a knife and a pistol with one clip; a bought primary weapon costs
/// its price and comes with one clip, replacing the primary weapon held before and its bullets.
#[test]
fn bought_weapons_come_with_one_clip() {
    let mut arena = arena();
    let money = arena.rules.resource_index("money").unwrap();
    let start = arena.state.clone();
    let held = |id: &str, charges: i64| HeldItem { item: arena.rules.item_index(id).unwrap() as u16, charges };
    assert_eq!(start.pieces[arena.me].items, vec![held("knife", 0), held("pistol", 6)]);
    for weapon in WEAPONS.iter().filter(|w| w.price > 0) {
        let mut state = start.clone();
        // A primary weapon already held, with extra bullets: given up.
        state.pieces[arena.me].items.push(held("shotgun", 13));
        state.seats[0].resources[money] = weapon.price - 1;
        let buy = arena.action(&state, json!({ "action": "buy_weapon", "weapon": weapon.id })).unwrap();
        assert!(
            arena.engine.apply(&mut state.clone(), &buy, &mut Events::discard()).is_err(),
            "{}: too dear",
            weapon.id
        );
        state.seats[0].resources[money] = weapon.price;
        arena.engine.apply(&mut state, &buy, &mut Events::discard()).unwrap();
        assert_eq!(state.seats[0].resources[money], 0, "{}: price", weapon.id);
        assert_eq!(
            state.pieces[arena.me].items,
            vec![held("knife", 0), held("pistol", 6), held(weapon.id, weapon.clip)],
            "{}: one clip",
            weapon.id
        );
    }
}

/// Every figure the player is shown before an attack, in the base game and in the Cheap Guns
/// variant (whose sniper rifle grazes on a 3, through its own hook), equals what 10,000 seeded
/// attacks through the engine measure, within four standard errors: the chance that the attack
/// does any damage, and the mean damage at the nearest enemy. The figures are worked out from the
/// mods' rules and hooks, so a variant that changes a hook changes its figures with it.
#[test]
fn every_preview_figure_matches_ten_thousand_seeded_attacks() {
    const TRIALS: u64 = 10_000;
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for mod_id in ["dunes_of_terror", "dunes_of_terror_cheap_guns"] {
        let mut arena = arena_of(mod_id);
        let mut cases: Vec<(&Weapon, u32, i64)> = Vec::new();
        for weapon in &WEAPONS {
            cases.extend((1..=weapon.range).map(|d| (weapon, d, weapon.clip)));
        }
        cases.extend((1..=4).map(|bullets| (weapon("machine_gun"), 1, bullets)));
        cases.push((weapon("submachine_gun"), 2, 1));
        cases.extend((1..=2).map(|bullets| (weapon("assault_rifle"), 3, bullets)));
        for (case, &(weapon, distance, bullets)) in cases.iter().enumerate() {
            let (start, position) = arena.armed(weapon, distance, bullets);
            let steps = arena.attack_steps(&start, position);
            let figures = arena.engine.preview(&start, &steps.0).unwrap();
            let (mut hits, mut sum, mut sum_squares) = (0u64, 0.0, 0.0);
            for trial in 0..TRIALS {
                let mut state = start.clone();
                state.rng = GameRng::from_seed_and_stream(SEED + 1, case as u64 * 1_000_000 + trial);
                let (damage, _, _) = arena.attack(&mut state, steps, position, &mut Events::discard());
                hits += u64::from(damage > 0);
                sum += damage as f64;
                sum_squares += (damage * damage) as f64;
            }
            let n = TRIALS as f64;
            let hit_rate = hits as f64 / n;
            let mean_damage = sum / n;
            let measured = [
                ("Chance to hit", hit_rate, (hit_rate * (1.0 - hit_rate) / n).sqrt()),
                (
                    "Expected damage at the nearest enemy",
                    mean_damage,
                    ((sum_squares - n * mean_damage * mean_damage) / (n - 1.0) / n).sqrt(),
                ),
            ];
            for (label, measured, se) in measured {
                let figure = figures.iter().find(|f| f.label == label).unwrap_or_else(|| panic!("no `{label}`"));
                // A sampled figure's own error adds to the measurement's.
                let own = match figure.method {
                    Method::Certain | Method::Exact => 0.0,
                    Method::Sampled { margin } => margin / 1.96,
                };
                let allowed = 4.0 * (se * se + own * own).sqrt() + 1e-9;
                let line = format!(
                    "{mod_id:<27} {:<15} d{distance} b{bullets:<2} {label:<37} shown {:>8.4} ({:?}) measured {measured:>8.4} se {se:.4}",
                    weapon.id, figure.value, figure.method
                );
                if (figure.value - measured).abs() > allowed {
                    failures.push(line.clone());
                }
                report.push(line);
            }
        }
    }
    println!("{}", report.join("\n"));
    assert!(
        failures.is_empty(),
        "figures more than four standard errors from the measurement:\n{}",
        failures.join("\n")
    );
}

/// The player's preview before an attack: the chance to do any damage and the expected damage
/// at the enemy's distance equal those of the exact distribution from the rules text; after the
/// roll, the damage previewed for the target is the damage the attack then does.
#[test]
fn the_attack_preview_gives_the_exact_chance_to_hit_and_expected_damage() {
    let mut arena = arena();
    let mut checked = 0;
    for weapon in &WEAPONS {
        for distance in 1..=weapon.range {
            let full = if weapon.clip == 0 { 0 } else { weapon.clip };
            let bullet_counts: Vec<i64> = if weapon.id == "machine_gun" { (1..=5).collect() } else { vec![full] };
            for bullets in bullet_counts {
                let (state, position) = arena.armed(weapon, distance, bullets);
                let (roll, hit) = arena.attack_steps(&state, position);
                let preview = arena.engine.preview(&state, &roll).unwrap();
                let figure = |label: &str| {
                    preview.iter().find(|f| f.label == label).unwrap_or_else(|| {
                        panic!("{} at {distance}: no `{label}` in the preview {preview:?}", weapon.id)
                    })
                };
                let dist = exact(weapon, distance, bullets);
                let case = format!("{} at {distance} with {bullets} bullets", weapon.id);
                // Worked out over every combination of the hooks' dice, except the machine gun
                // with four or five bullets (21^4 and 21^5 combinations), which is sampled.
                let sampled = weapon.id == "machine_gun" && bullets >= 4;
                for (label, truth) in
                    [("Chance to hit", 1.0 - dist[0]), ("Expected damage at the nearest enemy", mean(&dist))]
                {
                    let shown = figure(label);
                    match shown.method {
                        Method::Exact => {
                            assert!(!sampled, "{case}: {label} should be sampled");
                            assert!((shown.value - truth).abs() < 1e-9, "{case}: {label} {} vs {truth}", shown.value);
                        }
                        Method::Sampled { margin } => {
                            assert!(sampled, "{case}: {label} should be exact");
                            assert!(margin > 0.0 && margin < 0.02 * truth, "{case}: {label} margin {margin}");
                            assert!((shown.value - truth).abs() < 2.0 * margin, "{case}: {label} {shown:?} vs {truth}");
                        }
                        Method::Certain => panic!("{case}: {label} is a figure of odds"),
                    }
                }
                assert!(preview.iter().all(|f| f.label != "Damage"), "{case}: no damage before the roll");
                // After the roll, the damage previewed for the target is the damage done.
                let mut rolled = state.clone();
                arena.engine.apply(&mut rolled, &roll, &mut Events::discard()).unwrap();
                let after = arena.engine.preview(&rolled, &hit).unwrap();
                assert_eq!(after.len(), 1, "{case}: after the roll only the damage: {after:?}");
                let before = rolled.pieces[arena.foe].stats[arena.health];
                arena.engine.apply(&mut rolled, &hit, &mut Events::discard()).unwrap();
                let done = before - rolled.pieces[arena.foe].stats[arena.health];
                assert_eq!(after[0].value as i64, done, "{case}: previewed damage");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 1 + 2 + 3 + 3 + 4 + 5 + 3 * 5);
}
