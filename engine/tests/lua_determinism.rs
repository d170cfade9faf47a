//! Lua's own table order is the same in every Lua state, in every process: a hook that walks a
//! table with `next` (not only `pairs`, which the sandbox sorts) replays the same way.

mod common;

use common::write_mod;
use meeple_engine::game::{Engine, Events, GameSetup};

/// The order `next` visits 60 string keys in, in a fresh engine's Lua state.
fn next_order() -> String {
    let folder = write_mod(
        "ordered",
        &[
            (
                "mod.toml",
                b"id = \"ordered\"\nname = \"Ordered\"\nversion = \"1.0.0\"\napi = 1\ndescription = \"x\"\nseats = { min = 2, max = 2 }\n",
            ),
            (
                "data.toml",
                b"[board]\nkind = \"graph\"\nterrain = \"land\"\nspaces = [{ id = \"a\", home = 0 }, { id = \"b\", home = 1 }]\nlinks = [[\"a\", \"b\"]]\n\n[terrain.land]\n\n[end]\nwin = \"seat.number == 99\"\n",
            ),
            ("hooks/keys.lua", b"function keys() return 1 end\n"),
        ],
    );
    let rules = common::loaded(&folder);
    let mut engine = Engine::new(rules.clone()).unwrap();
    let mut events = Events::discard();
    let mut state = engine.new_game(&GameSetup::new(&rules, 1, 2, "human"), &mut events).unwrap();
    let code = "local t = {} for i = 1, 60 do t['key' .. i * 7919 % 1000] = i end \
                local out, k = {}, next(t) while k do out[#out + 1] = k k = next(t, k) end \
                return table.concat(out, ',')";
    engine.hooks_mut().expect("the mod has hooks").eval(code, &mut state, &mut events).unwrap()
}

#[test]
fn next_visits_string_keys_in_the_same_order_in_every_state() {
    let first = next_order();
    for _ in 0..5 {
        assert_eq!(next_order(), first);
    }
}

#[test]
fn next_visits_string_keys_in_the_same_order_in_every_process() {
    // The order, as a process of this test binary saw it before: a fresh process now must see it
    // too. Run the test binary again for the single test above and compare what it printed.
    if std::env::var_os("MEEPLE_PRINT_NEXT_ORDER").is_some() {
        println!("ORDER={}", next_order());
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let run = || {
        let out = std::process::Command::new(&exe)
            .args(["next_visits_string_keys_in_the_same_order_in_every_process", "--exact", "--nocapture"])
            .env("MEEPLE_PRINT_NEXT_ORDER", "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        text.lines().find_map(|l| l.strip_prefix("ORDER=").map(String::from)).expect("the child printed the order")
    };
    let here = next_order();
    assert_eq!(run(), here);
    assert_eq!(run(), here);
}
