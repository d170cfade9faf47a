//! `SimConfig::rotate_first`: each game of a simulation may let the next seat move first, so a
//! map's fairness is measured apart from the order of play.

mod common;

use meeple_engine::sim::{self, SimConfig};

/// A race: the first player to act claims the prize and wins.
const RACE: &str = r#"
[board]
kind = "graph"
terrain = "land"
spaces = [{ id = "prize" }]
links = []

[terrain.land]

[actions.claim]
label = "Claim the prize"
effect = ["win(me)"]
ai = { score = "1" }

[turn]
phases = [{ id = "main", actions = ["claim"] }]
"#;

fn wins(rotate_first: bool) -> Vec<u64> {
    let manifest = common::manifest("race").replace("max = 2", "max = 3");
    let folder = common::write_mod("race", &[("mod.toml", manifest.as_bytes()), ("data.toml", RACE.as_bytes())]);
    let rules = common::loaded(&folder);
    let config = SimConfig {
        games: 9,
        seed: 1,
        seats: 3,
        levels: vec!["medium".into()],
        rotate: false,
        rotate_first,
        threads: 1,
    };
    let (report, _) = sim::run(rules, &config, &|_| {}).expect("the games play");
    report.per_seat.iter().map(|seat| seat.wins.count).collect()
}

#[test]
fn rotating_the_first_seat_lets_each_seat_move_first_equally_often() {
    assert_eq!(wins(false), [9, 0, 0], "the mod's first seat always moves first");
    assert_eq!(wins(true), [3, 3, 3], "games 0, 3, 6 to seat 1; 1, 4, 7 to seat 2; 2, 5, 8 to seat 3");
}
