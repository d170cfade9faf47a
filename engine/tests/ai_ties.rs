//! Medium and hard computer players break a tie of score the same way: at random, from their own
//! seeded stream, so a hard player started from the same seed as a medium one takes the same
//! action among equals when looking ahead cannot tell them apart.

mod common;

use common::write_mod;
use meeple_engine::ai;
use meeple_engine::game::{Engine, Events, GameSetup};

#[test]
fn hard_breaks_ties_of_score_as_medium_does() {
    // Four actions that do nothing and score the same: no future can tell them apart.
    let mut data = String::from(
        "[board]\nkind = \"graph\"\nterrain = \"land\"\nspaces = [{ id = \"a\", home = 0 }, { id = \"b\", home = 1 }]\nlinks = [[\"a\", \"b\"]]\n\n[terrain.land]\n\n[end]\nwin = \"seat.number == 99\"\nturn_limit = 20\n\n",
    );
    for i in 1..=4 {
        data.push_str(&format!("[actions.same{i}]\nlabel = \"Same {i}\"\neffect = []\nai = {{ score = \"1\" }}\n\n"));
    }
    data.push_str("[turn]\nphases = [{ id = \"main\", actions = [\"same1\", \"same2\", \"same3\", \"same4\"], budget = { same1 = 1, same2 = 1, same3 = 1, same4 = 1 } }]\n");
    let folder = write_mod(
        "ties",
        &[
            (
                "mod.toml",
                b"id = \"ties\"\nname = \"Ties\"\nversion = \"1.0.0\"\napi = 1\ndescription = \"x\"\nseats = { min = 2, max = 2 }\n",
            ),
            ("data.toml", data.as_bytes()),
        ],
    );
    let rules = common::loaded(&folder);
    let mut engine = Engine::new(rules.clone()).unwrap();
    let state = engine.new_game(&GameSetup::new(&rules, 1, 2, "computer"), &mut Events::discard()).unwrap();
    let mut chosen = std::collections::BTreeSet::new();
    for seed in 0..24 {
        let medium = ai::player("medium", seed).unwrap().decide(&mut engine, &state).unwrap();
        let hard = ai::player("hard", seed).unwrap().decide(&mut engine, &state).unwrap();
        assert_eq!(hard, medium, "seed {seed}");
        chosen.insert(format!("{:?}", medium.kind));
    }
    // And the tie really is broken at random, not always for the first listed.
    assert!(chosen.len() >= 3, "{chosen:?}");
}
