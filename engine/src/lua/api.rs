//! The `game` table hooks use to read the game and ask for changes, and the `meeple` table
//! they register event handlers with. Seats, spaces and pieces are 1-based numbers; a space may
//! also be given by its label (`"C07"`).
//!
//! Every change made here goes through the same bounds (counter min/max) and produces the same
//! events as a change made by TOML effects.

use std::collections::BTreeMap;

use mlua::{Lua, MultiValue, Table, Value as LuaValue};

use super::sandbox::{bytes_as_instructions, charge};
use super::{HookCell, describe_lua};
use crate::defs::{EventKind, ParamKind};
use crate::diag::{MAX_ECHOED_CHARS, did_you_mean, shown};
use crate::game::changes;
use crate::game::events::Event;
use crate::game::state::{NO_PIECE, NO_SEAT, NO_SPACE, ScriptKey, ScriptValue, SeatStatus, TABLE_MARKER};

type LuaResult<T> = mlua::Result<T>;

fn err<T>(message: impl Into<String>) -> LuaResult<T> {
    Err(mlua::Error::runtime(message.into()))
}

/// Runs `f` on the hook cell, refusing when no game is being played.
fn with<R>(lua: &Lua, f: impl FnOnce(&mut HookCell) -> LuaResult<R>) -> LuaResult<R> {
    // Lua code run while the cell is in use (which the sandbox leaves no way to) is refused
    // rather than a panic.
    let mut cell = lua
        .try_app_data_mut::<HookCell>()
        .map_err(|_| mlua::Error::runtime("the game API cannot be used from here"))?
        .ok_or_else(|| mlua::Error::runtime("no game"))?;
    if !cell.active {
        return err("the game API is only available while a hook runs");
    }
    cell.read_game = true;
    f(&mut cell)
}

/// [`with`] for what reads nothing of the game (drawing, logging): a hook that only draws gives
/// the same odds in every state, which lets the odds remember them.
fn without_reading<R>(lua: &Lua, f: impl FnOnce(&mut HookCell) -> LuaResult<R>) -> LuaResult<R> {
    let mut cell = lua
        .try_app_data_mut::<HookCell>()
        .map_err(|_| mlua::Error::runtime("the game API cannot be used from here"))?
        .ok_or_else(|| mlua::Error::runtime("no game"))?;
    if !cell.active {
        return err("the game API is only available while a hook runs");
    }
    f(&mut cell)
}

fn writable(cell: &HookCell, what: &str) -> LuaResult<()> {
    if cell.writable { Ok(()) } else { err(format!("game.{what}: the game can only be read here")) }
}

fn space_arg(cell: &HookCell, value: &LuaValue, what: &str) -> LuaResult<u32> {
    let count = cell.state.owners.len() as i64;
    match value {
        LuaValue::Integer(n) if (1..=count).contains(n) => Ok((*n - 1) as u32),
        LuaValue::Number(x) if x.fract() == 0.0 && (1.0..=count as f64).contains(x) => Ok((*x as i64 - 1) as u32),
        LuaValue::String(s) => {
            let label = s.to_string_lossy();
            cell.state.board.find(&label).ok_or_else(|| {
                let known = cell.state.board.spaces().iter().map(|s| s.label.as_str());
                let hint = did_you_mean(&label, known).map(|s| format!("; did you mean `{s}`?")).unwrap_or_default();
                mlua::Error::runtime(format!("{what}: no space is labelled `{}`{hint}", shown(&label)))
            })
        }
        other => err(format!("{what}: expected a space (1..{count} or a label), got {}", show_value(other))),
    }
}

fn seat_arg(cell: &HookCell, value: &LuaValue, what: &str) -> LuaResult<u8> {
    let count = cell.state.seats.len() as i64;
    match value {
        LuaValue::Integer(n) if (1..=count).contains(n) => Ok((*n - 1) as u8),
        LuaValue::Number(x) if x.fract() == 0.0 && (1.0..=count as f64).contains(x) => Ok((*x as i64 - 1) as u8),
        other => err(format!("{what}: expected a seat number 1..{count}, got {}", show_value(other))),
    }
}

fn piece_arg(cell: &HookCell, value: &LuaValue, what: &str) -> LuaResult<usize> {
    let count = cell.state.pieces.len() as i64;
    match value {
        LuaValue::Integer(n) if (1..=count).contains(n) => Ok((*n - 1) as usize),
        other => err(format!("{what}: expected a piece id 1..{count}, got {}", show_value(other))),
    }
}

/// A whole number from `low` to `high` drawn as `game.random` draws it: from the draws of a
/// hook whose odds are worked out, a scenario test's forced numbers, or the game's stream.
fn draw_between(c: &mut HookCell, low: i64, high: i64, what: &str) -> LuaResult<i64> {
    if let Some(draws) = c.draws.as_mut() {
        // Working out odds: one draw among the numbers from `low` to `high` (none when
        // `high <= low`, as in play).
        if high <= low {
            return Ok(low);
        }
        let span = high.checked_sub(low).and_then(|d| u32::try_from(d).ok()).and_then(|d| d.checked_add(1));
        let Some(span) = span else {
            return err(format!("{what}({low}, {high}): too many outcomes to work out odds over"));
        };
        let index = draws.draw(span).map_err(|e| mlua::Error::runtime(format!("{what}: {e}")))?;
        return Ok(low + i64::from(index));
    }
    writable(c, what)?;
    // A scenario test's forced numbers come first (`g:force_random`), as forced dice do.
    match c.state.forced_random.front().copied() {
        Some(forced) if low <= forced && forced <= high => {
            c.state.forced_random.pop_front();
            Ok(forced)
        }
        Some(forced) => {
            err(format!("{what}({low}, {high}): the test forced {forced}, which is not between {low} and {high}"))
        }
        None => Ok(c.state.rng.range_inclusive(low, high)),
    }
}

/// Shuffles in place, Fisher–Yates: for each place from the last down, a draw among the places
/// up to it (`game.random(1, i)`), so forced numbers and worked-out odds see each swap.
fn shuffle_in_place<T>(c: &mut HookCell, items: &mut [T], what: &str) -> LuaResult<()> {
    for i in (1..items.len()).rev() {
        let j = draw_between(c, 1, i as i64 + 1, what)? - 1;
        items.swap(i, j as usize);
    }
    Ok(())
}

/// The values of a Lua list (its entries 1, 2, … up to the first nil).
fn list_arg(value: &LuaValue, what: &str) -> LuaResult<Vec<LuaValue>> {
    match value {
        LuaValue::Table(table) => table.sequence_values::<LuaValue>().collect(),
        other => err(format!("{what}: expected a list, got {}", show_value(other))),
    }
}

fn int_arg(value: &LuaValue, what: &str) -> LuaResult<i64> {
    match value {
        LuaValue::Integer(n) => Ok(*n),
        LuaValue::Number(x) if x.fract() == 0.0 && x.is_finite() => Ok(*x as i64),
        other => err(format!("{what}: expected a whole number, got {}", show_value(other))),
    }
}

fn name_arg(value: &LuaValue, what: &str) -> LuaResult<String> {
    match value {
        LuaValue::String(s) => Ok(s.to_string_lossy()),
        other => err(format!("{what}: expected a name, got {}", show_value(other))),
    }
}

fn lookup(names: impl Iterator<Item = String> + Clone, name: &str, kind: &str, what: &str) -> LuaResult<usize> {
    if let Some(i) = names.clone().position(|n| n == name) {
        return Ok(i);
    }
    let list: Vec<String> = names.collect();
    let hint = did_you_mean(name, list.iter().map(String::as_str))
        .map(|s| format!("; did you mean `{s}`?"))
        .unwrap_or_default();
    err(format!("{what}: unknown {kind} `{}`{hint}", shown(name)))
}

/// A card named by its id.
fn card_of(cell: &HookCell, value: &LuaValue, what: &str) -> LuaResult<u16> {
    let name = name_arg(value, what)?;
    Ok(lookup(cell.rules.card_ids.iter().cloned(), &name, "card", what)? as u16)
}

/// A card moved, or the reason it could not be, as a Lua error naming the function.
fn moved(what: &str, result: Result<(), crate::game::RuleError>) -> LuaResult<MultiValue> {
    match result {
        Ok(()) => Ok(MultiValue::new()),
        Err(e) => err(format!("{what}: {}", e.message())),
    }
}

fn arg(args: &MultiValue, i: usize) -> LuaValue {
    args.get(i).cloned().unwrap_or(LuaValue::Nil)
}

fn seat_value(seat: u8) -> LuaValue {
    if seat == NO_SEAT { LuaValue::Nil } else { LuaValue::Integer(i64::from(seat) + 1) }
}

/// How many levels of nested tables [`show_value`] shows; deeper ones are `{…}`.
const SHOWN_DEPTH: usize = 6;
/// How many values [`show_value`] shows in all, and of one table.
const SHOWN_VALUES: usize = 100;
const SHOWN_ITEMS: usize = 20;

/// A short rendering of a Lua value for messages, `game.log` and the console: a long string
/// cut, tables to a few levels and values, and a table met again inside itself as `<cycle>`
/// (what a mod hands over may hold itself, or nest a hundred thousand levels deep). Reads
/// tables raw, so no code of the mod runs.
pub(crate) fn show_value(value: &LuaValue) -> String {
    let mut out = String::new();
    let mut budget = SHOWN_VALUES;
    write_value(&mut out, value, &mut Vec::new(), &mut budget);
    out
}

fn write_value(out: &mut String, value: &LuaValue, path: &mut Vec<*const std::ffi::c_void>, budget: &mut usize) {
    match value {
        LuaValue::Nil => out.push_str("nil"),
        LuaValue::Boolean(b) => out.push_str(&b.to_string()),
        LuaValue::Integer(n) => out.push_str(&n.to_string()),
        LuaValue::Number(x) => out.push_str(&x.to_string()),
        LuaValue::String(s) => {
            let bytes = s.as_bytes();
            let text = String::from_utf8_lossy(&bytes);
            match text.char_indices().nth(MAX_ECHOED_CHARS) {
                Some((end, _)) => out.push_str(&format!("{:?}… ({} bytes)", &text[..end], bytes.len())),
                None => out.push_str(&format!("{text:?}")),
            }
        }
        LuaValue::Table(t) => {
            let address = t.to_pointer();
            if path.contains(&address) {
                out.push_str("<cycle>");
                return;
            }
            if path.len() >= SHOWN_DEPTH || *budget == 0 {
                let empty = t.clone().pairs::<LuaValue, LuaValue>().next().is_none();
                out.push_str(if empty { "{}" } else { "{…}" });
                return;
            }
            path.push(address);
            out.push('{');
            let mut shown = 0;
            for item in t.clone().sequence_values::<LuaValue>() {
                let Ok(item) = item else { break };
                if shown > 0 {
                    out.push_str(", ");
                }
                if shown == SHOWN_ITEMS || *budget == 0 {
                    out.push('…');
                    break;
                }
                *budget -= 1;
                shown += 1;
                write_value(out, &item, path, budget);
            }
            if shown == 0 && t.clone().pairs::<LuaValue, LuaValue>().next().is_some() {
                out.push('…');
            }
            out.push('}');
            path.pop();
        }
        other => out.push_str(other.type_name()),
    }
}

/// Installs `game` and `meeple` as globals. `registry` keeps `meeple.on` registrations.
pub(crate) fn install(lua: &Lua, registry: &Table) -> LuaResult<()> {
    let game = lua.create_table()?;
    macro_rules! api {
        ($name:literal, |$lua:ident, $args:ident| $body:expr) => {
            game.raw_set(
                $name,
                lua.create_function(|$lua: &Lua, $args: MultiValue| -> LuaResult<MultiValue> { $body })?,
            )?;
        };
    }
    fn one(lua: &Lua, value: impl mlua::IntoLua) -> LuaResult<MultiValue> {
        Ok(MultiValue::from_iter([value.into_lua(lua)?]))
    }

    // ----- reading -----
    api!("turn", |lua, _a| with(lua, |c| one(lua, i64::from(c.state.turn.number))));
    api!("round", |lua, _a| with(lua, |c| one(lua, i64::from(c.state.turn.round))));
    api!("current_seat", |lua, _a| with(lua, |c| one(lua, i64::from(c.state.turn.seat) + 1)));
    api!("seat_count", |lua, _a| with(lua, |c| one(lua, c.state.seats.len() as i64)));
    api!("seat_status", |lua, a| with(lua, |c| {
        let seat = seat_arg(c, &arg(&a, 0), "seat_status")?;
        let status = match c.state.seats[seat as usize].status {
            SeatStatus::Active => "active",
            SeatStatus::Left => "left",
            SeatStatus::Eliminated => "eliminated",
        };
        one(lua, status)
    }));
    api!("seat_name", |lua, a| with(lua, |c| {
        let seat = seat_arg(c, &arg(&a, 0), "seat_name")?;
        one(lua, c.state.seats[seat as usize].name.clone())
    }));
    api!("space_count", |lua, _a| with(lua, |c| one(lua, c.state.owners.len() as i64)));
    api!("space", |lua, a| with(lua, |c| {
        let label = name_arg(&arg(&a, 0), "space")?;
        one(lua, c.state.board.find(&label).map(|s| i64::from(s) + 1))
    }));
    api!("label", |lua, a| with(lua, |c| {
        let space = space_arg(c, &arg(&a, 0), "label")?;
        one(lua, c.state.board.space(space).label.clone())
    }));
    api!("owner", |lua, a| with(lua, |c| {
        let space = space_arg(c, &arg(&a, 0), "owner")?;
        one(lua, seat_value(c.state.owners[space as usize]))
    }));
    api!("counter", |lua, a| with(lua, |c| {
        let space = space_arg(c, &arg(&a, 0), "counter")?;
        let name = name_arg(&arg(&a, 1), "counter")?;
        let index = lookup(c.rules.space_counters.iter().map(|x| x.id.clone()), &name, "space counter", "counter")?;
        one(lua, c.state.counter(space, index as u16))
    }));
    api!("terrain", |lua, a| with(lua, |c| {
        let space = space_arg(c, &arg(&a, 0), "terrain")?;
        let terrain = c.state.board.space(space).terrain as usize;
        one(lua, c.rules.terrain.get(terrain).map(|t| t.id.clone()))
    }));
    api!("neighbors", |lua, a| with(lua, |c| {
        let space = space_arg(c, &arg(&a, 0), "neighbors")?;
        let list: Vec<i64> = c.state.board.neighbors(space).iter().map(|(n, _)| i64::from(*n) + 1).collect();
        one(lua, list)
    }));
    api!("line_of_sight", |lua, a| with(lua, |c| {
        let from = space_arg(c, &arg(&a, 0), "line_of_sight")?;
        let to = space_arg(c, &arg(&a, 1), "line_of_sight")?;
        let mut scratch = crate::board::Scratch::default();
        one(lua, crate::game::eval::line_of_sight(&c.rules, &c.state, &mut scratch, from, to))
    }));
    api!("beyond", |lua, a| with(lua, |c| {
        let from = space_arg(c, &arg(&a, 0), "beyond")?;
        let to = space_arg(c, &arg(&a, 1), "beyond")?;
        let Some(spaces) = c.state.board.beyond(from, to) else {
            return err("game.beyond: the board is not a square grid, where a step straight on is defined");
        };
        one(lua, spaces.into_iter().map(|s| i64::from(s) + 1).collect::<Vec<i64>>())
    }));
    api!("wall", |lua, a| with(lua, |c| {
        let (p, q) = (space_arg(c, &arg(&a, 0), "wall")?, space_arg(c, &arg(&a, 1), "wall")?);
        let board = &c.state.board;
        let wall = board.edge_between(p, q).and_then(|edge| board.edge(edge).wall);
        one(lua, wall.and_then(|terrain| c.rules.terrain.get(terrain as usize)).map(|t| t.id.clone()))
    }));
    api!("distance", |lua, a| with(lua, |c| {
        let from = space_arg(c, &arg(&a, 0), "distance")?;
        let to = space_arg(c, &arg(&a, 1), "distance")?;
        one(lua, c.state.board.distance(from, to).map(i64::from))
    }));
    api!("owned", |lua, a| with(lua, |c| {
        let seat = seat_arg(c, &arg(&a, 0), "owned")?;
        one(lua, i64::from(c.state.owned_count(seat)))
    }));
    api!("largest_group", |lua, a| with(lua, |c| {
        let seat = seat_arg(c, &arg(&a, 0), "largest_group")?;
        let owners = &c.state.owners;
        let mut scratch = crate::board::Scratch::default();
        one(lua, i64::from(c.state.board.largest_group(|s| owners[s as usize] == seat, &mut scratch)))
    }));
    api!("resource", |lua, a| with(lua, |c| {
        let seat = seat_arg(c, &arg(&a, 0), "resource")?;
        let name = name_arg(&arg(&a, 1), "resource")?;
        let index = lookup(c.rules.resources.iter().map(|x| x.id.clone()), &name, "resource", "resource")?;
        one(lua, c.state.seats[seat as usize].resources[index])
    }));
    api!("var", |lua, a| with(lua, |c| {
        let name = name_arg(&arg(&a, 0), "var")?;
        let index = lookup(c.rules.vars.iter().map(|x| x.id.clone()), &name, "variable", "var")?;
        one(lua, c.state.vars[index])
    }));
    api!("stat", |lua, a| with(lua, |c| {
        let piece = piece_arg(c, &arg(&a, 0), "stat")?;
        let name = name_arg(&arg(&a, 1), "stat")?;
        let index = lookup(c.rules.stats.iter().map(|x| x.id.clone()), &name, "stat", "stat")?;
        one(lua, c.state.pieces[piece].stats[index])
    }));
    api!("piece_kind", |lua, a| with(lua, |c| {
        let piece = piece_arg(c, &arg(&a, 0), "piece_kind")?;
        one(lua, c.rules.piece_kinds[c.state.pieces[piece].kind as usize].id.clone())
    }));
    api!("piece_space", |lua, a| with(lua, |c| {
        let piece = piece_arg(c, &arg(&a, 0), "piece_space")?;
        let space = c.state.pieces[piece].space;
        one(lua, (space != NO_SPACE).then(|| i64::from(space) + 1))
    }));
    api!("piece_owner", |lua, a| with(lua, |c| {
        let piece = piece_arg(c, &arg(&a, 0), "piece_owner")?;
        one(lua, seat_value(c.state.pieces[piece].owner))
    }));
    api!("alive", |lua, a| with(lua, |c| {
        let piece = piece_arg(c, &arg(&a, 0), "alive")?;
        one(lua, c.state.pieces[piece].alive)
    }));
    api!("items", |lua, a| with(lua, |c| {
        let piece = piece_arg(c, &arg(&a, 0), "items")?;
        let ids: Vec<String> =
            c.state.pieces[piece].items.iter().map(|held| c.rules.items[held.item as usize].id.clone()).collect();
        one(lua, ids)
    }));
    api!("inside", |lua, a| with(lua, |c| {
        let piece = piece_arg(c, &arg(&a, 0), "inside")?;
        let holder = c.state.pieces[piece].inside;
        one(lua, (holder != NO_PIECE).then(|| i64::from(holder) + 1))
    }));
    api!("contents", |lua, a| with(lua, |c| {
        let holder = piece_arg(c, &arg(&a, 0), "contents")?;
        let list: Vec<i64> = changes::contents(&c.state, holder as u32).map(|p| i64::from(p) + 1).collect();
        one(lua, list)
    }));
    api!("across", |lua, a| with(lua, |c| {
        let piece = piece_arg(c, &arg(&a, 0), "across")?;
        let across = c.state.pieces[piece].across;
        one(lua, (across != NO_SPACE).then(|| i64::from(across) + 1))
    }));
    api!("piece_between", |lua, a| with(lua, |c| {
        let (p, q) = (space_arg(c, &arg(&a, 0), "piece_between")?, space_arg(c, &arg(&a, 1), "piece_between")?);
        let (space, across) = (p.min(q), p.max(q));
        let found = c
            .state
            .pieces
            .iter()
            .position(|x| x.alive && p != q && x.space == space && x.across == across && x.inside == NO_PIECE);
        one(lua, found.map(|x| x as i64 + 1))
    }));
    api!("pieces", |lua, a| with(lua, |c| {
        let at = match arg(&a, 0) {
            LuaValue::Nil => None,
            v => Some(space_arg(c, &v, "pieces")?),
        };
        let list: Vec<i64> = c
            .state
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.alive && at.is_none_or(|s| p.space == s))
            .map(|(i, _)| i as i64 + 1)
            .collect();
        one(lua, list)
    }));
    api!("hand", |lua, a| with(lua, |c| {
        let seat = seat_arg(c, &arg(&a, 0), "hand")?;
        // In a seat's view, the cards it does not know are not listed (`hand_size` counts them).
        let cards: Vec<String> = c.state.seats[seat as usize]
            .hand
            .iter()
            .filter_map(|(_, card)| c.rules.card_ids.get(*card as usize).cloned())
            .collect();
        one(lua, cards)
    }));
    api!("attached", |lua, a| with(lua, |c| {
        let piece = piece_arg(c, &arg(&a, 0), "attached")?;
        let cards: Vec<String> = c.state.pieces[piece]
            .cards
            .iter()
            .filter_map(|(_, card)| c.rules.card_ids.get(*card as usize).cloned())
            .collect();
        one(lua, cards)
    }));
    api!("hand_size", |lua, a| with(lua, |c| {
        let seat = seat_arg(c, &arg(&a, 0), "hand_size")?;
        one(lua, c.state.seats[seat as usize].hand.len() as i64)
    }));
    api!("get", |lua, a| with(lua, |c| {
        let key = name_arg(&arg(&a, 0), "get")?;
        match c.state.script_data.get(&key) {
            Some(value) => {
                charge(lua, bytes_as_instructions(data_size(value)), "game.get")?;
                one(lua, script_to_lua(lua, value)?)
            }
            None => one(lua, LuaValue::Nil),
        }
    }));

    // ----- asking for changes -----
    api!("put", |lua, a| with(lua, |c| {
        writable(c, "put")?;
        let key = name_arg(&arg(&a, 0), "put")?;
        let (kept, measured) = c
            .state
            .script_data
            .iter()
            .filter(|(k, _)| **k != key)
            .map(|(k, v)| (k.len() + data_size(v), data_values(v)))
            .fold((0, 0), |(size, values), (s, v)| (size + s, values + v));
        // Measuring what is kept already visited every value of it.
        charge(lua, measured as u64 + c.state.script_data.len() as u64, "game.put")?;
        let mut size = key.len() + kept;
        let value = lua_to_script(&arg(&a, 1), &mut Vec::new(), &mut size)?;
        // What was copied.
        let work = bytes_as_instructions(size - kept);
        charge(lua, work, "game.put")?;
        match value {
            Some(value) => c.state.script_data.insert(key, value),
            None => c.state.script_data.remove(&key),
        };
        Ok(MultiValue::new())
    }));
    api!("set_counter", |_lua, a| with(_lua, |c| {
        writable(c, "set_counter")?;
        let space = space_arg(c, &arg(&a, 0), "set_counter")?;
        let name = name_arg(&arg(&a, 1), "set_counter")?;
        let value = int_arg(&arg(&a, 2), "set_counter")?;
        let counter =
            lookup(c.rules.space_counters.iter().map(|x| x.id.clone()), &name, "space counter", "set_counter")? as u16;
        let rules = c.rules.clone();
        changes::set_counter(&rules, &mut c.state, &mut c.events, space, counter, value);
        Ok(MultiValue::new())
    }));
    api!("set_owner", |_lua, a| with(_lua, |c| {
        writable(c, "set_owner")?;
        let space = space_arg(c, &arg(&a, 0), "set_owner")?;
        let to = match arg(&a, 1) {
            LuaValue::Nil => NO_SEAT,
            v => seat_arg(c, &v, "set_owner")?,
        };
        changes::set_owner(&mut c.state, &mut c.events, space, to);
        Ok(MultiValue::new())
    }));
    api!("set_resource", |_lua, a| with(_lua, |c| {
        writable(c, "set_resource")?;
        let seat = seat_arg(c, &arg(&a, 0), "set_resource")?;
        let name = name_arg(&arg(&a, 1), "set_resource")?;
        let value = int_arg(&arg(&a, 2), "set_resource")?;
        let resource = lookup(c.rules.resources.iter().map(|x| x.id.clone()), &name, "resource", "set_resource")?;
        let rules = c.rules.clone();
        changes::set_resource(&rules, &mut c.state, &mut c.events, seat, resource as u16, value);
        Ok(MultiValue::new())
    }));
    api!("set_var", |_lua, a| with(_lua, |c| {
        writable(c, "set_var")?;
        let name = name_arg(&arg(&a, 0), "set_var")?;
        let value = int_arg(&arg(&a, 1), "set_var")?;
        let var = lookup(c.rules.vars.iter().map(|x| x.id.clone()), &name, "variable", "set_var")?;
        let rules = c.rules.clone();
        changes::set_var(&rules, &mut c.state, &mut c.events, var as u16, value);
        Ok(MultiValue::new())
    }));
    api!("set_stat", |_lua, a| with(_lua, |c| {
        writable(c, "set_stat")?;
        let piece = piece_arg(c, &arg(&a, 0), "set_stat")?;
        let name = name_arg(&arg(&a, 1), "set_stat")?;
        let value = int_arg(&arg(&a, 2), "set_stat")?;
        let stat = lookup(c.rules.stats.iter().map(|x| x.id.clone()), &name, "stat", "set_stat")?;
        let rules = c.rules.clone();
        changes::set_stat(&rules, &mut c.state, &mut c.events, piece as u32, stat as u16, value);
        Ok(MultiValue::new())
    }));
    api!("offer", |_lua, a| with(_lua, |c| {
        writable(c, "offer")?;
        // The rules language writes the action first (`offer("id", seat, …)`); say so when a
        // hook does that here.
        if let (LuaValue::String(first), Ok(_)) = (arg(&a, 0), seat_arg(c, &arg(&a, 1), "offer")) {
            let first = first.to_string_lossy();
            if c.rules.actions.iter().any(|x| x.id == first) {
                return err(format!(
                    "offer: the seat comes first, then the action: game.offer(seat, \"{}\", …)",
                    shown(&first)
                ));
            }
        }
        let seat = seat_arg(c, &arg(&a, 0), "offer")?;
        let name = name_arg(&arg(&a, 1), "offer")?;
        let index = lookup(c.rules.actions.iter().map(|x| x.id.clone()), &name, "action", "offer")?;
        let rule = &c.rules.actions[index];
        if !rule.response {
            return err(format!(
                "offer: `{}` is not a response: only an action with `response = true` is offered out of turn",
                shown(&name)
            ));
        }
        let given = a.len().saturating_sub(2);
        if given > rule.params.len() {
            return err(format!("offer: `{}` has {} parameter(s), not {given}", shown(&name), rule.params.len()));
        }
        let reads = rule.decline_reads as usize;
        if given < reads {
            return err(format!(
                "offer: `{}`'s `on_decline` reads its parameter `{}`, so give at least {reads} parameter(s), not {given}",
                shown(&name),
                rule.params[reads - 1].name
            ));
        }
        // Each parameter given as its kind is written in Lua: spaces, seats and pieces as numbers
        // from 1 (a space also by its label), items and cards by id, numbers as they are.
        let mut args = Vec::with_capacity(given);
        for (i, param) in rule.params.iter().take(given).enumerate() {
            let value = arg(&a, 2 + i);
            let what = format!("offer: `{}`", param.name);
            args.push(match param.kind {
                ParamKind::Space => i64::from(space_arg(c, &value, &what)?),
                ParamKind::Seat => i64::from(seat_arg(c, &value, &what)?),
                ParamKind::Piece => piece_arg(c, &value, &what)? as i64,
                ParamKind::Number => int_arg(&value, &what)?,
                ParamKind::Item => {
                    let item = name_arg(&value, &what)?;
                    lookup(c.rules.items.iter().map(|x| x.id.clone()), &item, "item", &what)? as i64
                }
                ParamKind::Card => i64::from(card_of(c, &value, &what)?),
                ParamKind::Held => return err(format!("{what}: a held item cannot be given by an offer from Lua")),
            });
        }
        changes::offer(&mut c.state, &mut c.events, seat, index as u16, args);
        Ok(MultiValue::new())
    }));
    api!("reveal_hand", |_lua, a| with(_lua, |c| {
        writable(c, "reveal_hand")?;
        let seat = seat_arg(c, &arg(&a, 0), "reveal_hand")?;
        let to = match arg(&a, 1) {
            LuaValue::Nil => None,
            v => Some(seat_arg(c, &v, "reveal_hand")?),
        };
        changes::reveal_hand(&mut c.state, &mut c.events, seat, to);
        Ok(MultiValue::new())
    }));
    api!("reveal_card", |lua, a| with(lua, |c| {
        writable(c, "reveal_card")?;
        let seat = seat_arg(c, &arg(&a, 0), "reveal_card")?;
        let name = name_arg(&arg(&a, 1), "reveal_card")?;
        let card = lookup(c.rules.card_ids.iter().cloned(), &name, "card", "reveal_card")? as u16;
        let to = match arg(&a, 2) {
            LuaValue::Nil => None,
            v => Some(seat_arg(c, &v, "reveal_card")?),
        };
        one(lua, changes::reveal_card(&mut c.state, &mut c.events, seat, card, to))
    }));
    // Moving cards: each moves one copy and is an error when the card is not there.
    api!("discard", |_lua, a| with(_lua, |c| {
        writable(c, "discard")?;
        let seat = seat_arg(c, &arg(&a, 0), "discard")?;
        let card = card_of(c, &arg(&a, 1), "discard")?;
        let rules = c.rules.clone();
        moved("discard", changes::discard_card(&rules, &mut c.state, &mut c.events, seat, card))
    }));
    api!("give_card", |_lua, a| with(_lua, |c| {
        writable(c, "give_card")?;
        let from = seat_arg(c, &arg(&a, 0), "give_card")?;
        let to = seat_arg(c, &arg(&a, 1), "give_card")?;
        let card = card_of(c, &arg(&a, 2), "give_card")?;
        let rules = c.rules.clone();
        moved("give_card", changes::give_card(&rules, &mut c.state, &mut c.events, from, to, card))
    }));
    api!("return_card", |_lua, a| with(_lua, |c| {
        writable(c, "return_card")?;
        let seat = seat_arg(c, &arg(&a, 0), "return_card")?;
        let card = card_of(c, &arg(&a, 1), "return_card")?;
        let rules = c.rules.clone();
        moved("return_card", changes::return_card(&rules, &mut c.state, &mut c.events, seat, card))
    }));
    api!("attach", |_lua, a| with(_lua, |c| {
        writable(c, "attach")?;
        let piece = piece_arg(c, &arg(&a, 0), "attach")? as u32;
        let card = card_of(c, &arg(&a, 1), "attach")?;
        let seat = seat_arg(c, &arg(&a, 2), "attach")?;
        let rules = c.rules.clone();
        moved("attach", changes::attach_card(&rules, &mut c.state, &mut c.events, piece, card, seat))
    }));
    api!("detach", |_lua, a| with(_lua, |c| {
        writable(c, "detach")?;
        let piece = piece_arg(c, &arg(&a, 0), "detach")? as u32;
        let card = card_of(c, &arg(&a, 1), "detach")?;
        let seat = seat_arg(c, &arg(&a, 2), "detach")?;
        let rules = c.rules.clone();
        moved("detach", changes::detach_card(&rules, &mut c.state, &mut c.events, piece, card, seat))
    }));
    api!("move_piece", |_lua, a| with(_lua, |c| {
        writable(c, "move_piece")?;
        let piece = piece_arg(c, &arg(&a, 0), "move_piece")?;
        let to = match arg(&a, 1) {
            LuaValue::Nil => NO_SPACE,
            v => space_arg(c, &v, "move_piece")?,
        };
        match changes::move_piece(&mut c.state, &mut c.events, piece as u32, to) {
            Ok(()) => Ok(MultiValue::new()),
            Err(e) => err(format!("move_piece: {}", e.message())),
        }
    }));
    api!("place", |lua, a| with(lua, |c| {
        writable(c, "place")?;
        let name = name_arg(&arg(&a, 0), "place")?;
        let kind = lookup(c.rules.piece_kinds.iter().map(|k| k.id.clone()), &name, "piece kind", "place")?;
        let owner = match arg(&a, 1) {
            LuaValue::Nil => NO_SEAT,
            v => seat_arg(c, &v, "place")?,
        };
        let space = space_arg(c, &arg(&a, 2), "place")?;
        let rules = c.rules.clone();
        match changes::place_piece(&rules, &mut c.state, &mut c.events, kind as u16, owner, space) {
            // Pieces are numbered from 1 in Lua.
            Ok(piece) => one(lua, i64::from(piece) + 1),
            Err(e) => err(format!("place: {}", e.message())),
        }
    }));
    api!("place_between", |lua, a| with(lua, |c| {
        writable(c, "place_between")?;
        let name = name_arg(&arg(&a, 0), "place_between")?;
        let kind = lookup(c.rules.piece_kinds.iter().map(|k| k.id.clone()), &name, "piece kind", "place_between")?;
        let owner = match arg(&a, 1) {
            LuaValue::Nil => NO_SEAT,
            v => seat_arg(c, &v, "place_between")?,
        };
        let (p, q) = (space_arg(c, &arg(&a, 2), "place_between")?, space_arg(c, &arg(&a, 3), "place_between")?);
        let rules = c.rules.clone();
        match changes::place_piece_between(&rules, &mut c.state, &mut c.events, kind as u16, owner, p, q) {
            Ok(piece) => one(lua, i64::from(piece) + 1),
            Err(e) => err(format!("place_between: {}", e.message())),
        }
    }));
    api!("place_inside", |lua, a| with(lua, |c| {
        writable(c, "place_inside")?;
        let name = name_arg(&arg(&a, 0), "place_inside")?;
        let kind = lookup(c.rules.piece_kinds.iter().map(|k| k.id.clone()), &name, "piece kind", "place_inside")?;
        let owner = match arg(&a, 1) {
            LuaValue::Nil => NO_SEAT,
            v => seat_arg(c, &v, "place_inside")?,
        };
        let holder = piece_arg(c, &arg(&a, 2), "place_inside")?;
        let rules = c.rules.clone();
        match changes::place_piece_inside(&rules, &mut c.state, &mut c.events, kind as u16, owner, holder as u32) {
            Ok(piece) => one(lua, i64::from(piece) + 1),
            Err(e) => err(format!("place_inside: {}", e.message())),
        }
    }));
    api!("set_inside", |_lua, a| with(_lua, |c| {
        writable(c, "set_inside")?;
        let piece = piece_arg(c, &arg(&a, 0), "set_inside")?;
        let holder = match arg(&a, 1) {
            LuaValue::Nil => NO_PIECE,
            v => piece_arg(c, &v, "set_inside")? as u32,
        };
        let rules = c.rules.clone();
        match changes::set_inside(&rules, &mut c.state, &mut c.events, piece as u32, holder) {
            Ok(()) => Ok(MultiValue::new()),
            Err(e) => err(format!("set_inside: {}", e.message())),
        }
    }));
    api!("remove", |_lua, a| with(_lua, |c| {
        writable(c, "remove")?;
        let piece = piece_arg(c, &arg(&a, 0), "remove")?;
        if c.state.pieces[piece].alive {
            changes::remove_piece(&mut c.state, &mut c.events, piece as u32);
        }
        Ok(MultiValue::new())
    }));
    api!("set_piece_owner", |_lua, a| with(_lua, |c| {
        writable(c, "set_piece_owner")?;
        let piece = piece_arg(c, &arg(&a, 0), "set_piece_owner")?;
        let to = match arg(&a, 1) {
            LuaValue::Nil => NO_SEAT,
            v => seat_arg(c, &v, "set_piece_owner")?,
        };
        changes::set_piece_owner(&mut c.state, &mut c.events, piece as u32, to);
        Ok(MultiValue::new())
    }));
    api!("log", |_lua, a| without_reading(_lua, |c| {
        // Log lines are kept outside Lua's memory limit: each byte counts as an instruction.
        let bytes: usize = a.iter().map(|v| if let LuaValue::String(s) = v { s.as_bytes().len() } else { 8 }).sum();
        charge(_lua, bytes as u64, "game.log")?;
        // Other values are shown within one budget for the whole line, however many there are.
        let mut budget = SHOWN_VALUES;
        let mut text = String::new();
        for (i, value) in a.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            match value {
                LuaValue::String(s) => text.push_str(&s.to_string_lossy()),
                other => write_value(&mut text, other, &mut Vec::new(), &mut budget),
            }
        }
        charge(_lua, bytes_as_instructions(text.len().saturating_sub(bytes)), "game.log")?;
        // A log line is for people to read, and the game keeps every one: a line of megabytes
        // is kept cut, so a hook that logs one at every turn does not fill the memory.
        if text.len() > MAX_LOG_LINE {
            let total = text.len();
            let mut cut = MAX_LOG_LINE;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            // A new string, not a truncated one: that would keep the megabytes allocated.
            text = format!("{}… ({total} bytes)", &text[..cut]);
        }
        c.events.push_with(|| Event::Log { text });
        Ok(MultiValue::new())
    }));
    api!("roll", |lua, a| without_reading(lua, |c| {
        let count = int_arg(&arg(&a, 0), "roll")?;
        let sides = int_arg(&arg(&a, 1), "roll")?;
        if c.draws.is_none() {
            writable(c, "roll")?;
        }
        if !(0..=1000).contains(&count) || !(1..=1000).contains(&sides) {
            return err(format!("roll: cannot roll {count}d{sides} (0 to 1000 dice of 1 to 1000 sides)"));
        }
        let mut faces = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let face = match c.draws.as_mut() {
                // Working out odds: the draws are the odds' own, never the game's stream.
                Some(draws) => 1 + draws.draw(sides as u32).map_err(|e| mlua::Error::runtime(format!("roll: {e}")))?,
                None => match c.state.forced_faces.pop_front() {
                    Some(f) => f,
                    None => c.state.rng.die(sides as u32),
                },
            };
            faces.push(face);
        }
        let value: i64 = faces.iter().map(|&f| i64::from(f)).sum();
        let shown = faces.clone();
        c.events.push_with(|| Event::Rolled { roll: Some("hook".into()), sides: sides as u32, faces: shown, value });
        let table = lua.create_sequence_from(faces)?;
        Ok(MultiValue::from_iter([LuaValue::Integer(value), LuaValue::Table(table)]))
    }));
    api!("random", |lua, a| without_reading(lua, |c| {
        let low = int_arg(&arg(&a, 0), "random")?;
        let high = int_arg(&arg(&a, 1), "random")?;
        one(lua, draw_between(c, low, high, "random")?)
    }));
    api!("shuffle", |lua, a| without_reading(lua, |c| {
        let mut items = list_arg(&arg(&a, 0), "shuffle")?;
        // Each element costs as an instruction: a shuffle of a long list is work.
        charge(lua, items.len() as u64, "game.shuffle")?;
        shuffle_in_place(c, &mut items, "shuffle")?;
        let out = lua.create_table()?;
        for item in items {
            out.push(item)?;
        }
        one(lua, out)
    }));
    api!("spread", |lua, a| without_reading(lua, |c| {
        let items = list_arg(&arg(&a, 0), "spread")?;
        let mut onto = list_arg(&arg(&a, 1), "spread")?;
        charge(lua, (items.len() + onto.len()) as u64, "game.spread")?;
        if onto.is_empty() && !items.is_empty() {
            return err("spread: nothing to spread onto (the second list is empty)");
        }
        // Who meets whom at random: the targets in a random order, then the items in one, dealt
        // round: every target gets one before any gets two.
        shuffle_in_place(c, &mut onto, "spread")?;
        let mut order: Vec<usize> = (0..items.len()).collect();
        shuffle_in_place(c, &mut order, "spread")?;
        let mut dealt = vec![LuaValue::Nil; items.len()];
        for (k, &i) in order.iter().enumerate() {
            dealt[i] = onto[k % onto.len()].clone();
        }
        let out = lua.create_table()?;
        for target in dealt {
            out.push(target)?;
        }
        one(lua, out)
    }));
    lua.globals().raw_set("game", game)?;

    let meeple = lua.create_table()?;
    let handlers = lua.create_table()?;
    registry.raw_set("handlers", handlers.clone())?;
    let on = lua.create_function(move |lua, (event, function): (String, LuaValue)| {
        if EventKind::ALL.iter().all(|k| k.name() != event) {
            let hint = did_you_mean(&event, EventKind::ALL.iter().map(|k| k.name()))
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            let names: Vec<&str> = EventKind::ALL.iter().map(|k| k.name()).collect();
            return err::<()>(format!(
                "meeple.on: unknown event `{}`{hint} (events: {})",
                shown(&event),
                names.join(", ")
            ));
        }
        let LuaValue::Function(function) = function else {
            return err(format!(
                "meeple.on(\"{}\", …): the second argument must be a function, got {}",
                shown(&event),
                describe_lua(&function)
            ));
        };
        if handlers.raw_len() >= MAX_EVENT_HANDLERS {
            return err(format!(
                "meeple.on: a mod may register at most {MAX_EVENT_HANDLERS} event handlers (each is called on every \
                 such event)"
            ));
        }
        let pair =
            lua.create_sequence_from([LuaValue::String(lua.create_string(&event)?), LuaValue::Function(function)])?;
        handlers.raw_push(pair)?;
        Ok(())
    })?;
    meeple.raw_set("on", on)?;
    meeple.raw_set("api_version", i64::from(crate::defs::ENGINE_API_VERSION))?;
    lua.globals().raw_set("meeple", meeple)?;
    Ok(())
}

/// Bytes of one `game.log` line the game keeps; a longer line is kept cut, with its length.
pub const MAX_LOG_LINE: usize = 4_096;

/// Event handlers one mod may register with `meeple.on`, all events together.
pub const MAX_EVENT_HANDLERS: usize = 256;

/// Deepest plain data `game.put` accepts.
pub(crate) const MAX_DATA_DEPTH: usize = 32;
/// Most plain data one game keeps for its hooks, all keys together, as [`data_size`] counts:
/// it lives outside Lua's memory limit, in every save, and in the copy of the state taken
/// before every action that can fail.
pub(crate) const MAX_DATA_SIZE: usize = 1 << 20;
/// What one value counts for in [`data_size`] besides its text.
const DATA_VALUE_SIZE: usize = 16;

/// The size of kept data: its text and map keys, and [`DATA_VALUE_SIZE`] per value.
fn data_size(value: &ScriptValue) -> usize {
    DATA_VALUE_SIZE
        + match value {
            ScriptValue::Text(s) => s.len(),
            ScriptValue::List(items) => items.iter().map(data_size).sum(),
            ScriptValue::Map(map) => map.iter().map(|(k, v)| k.len() + data_size(v)).sum(),
            ScriptValue::Table(table) => table.iter().map(|(k, v)| key_size(k) + data_size(v)).sum(),
            _ => 0,
        }
}

/// What a key of a table counts for in [`data_size`].
fn key_size(key: &ScriptKey) -> usize {
    match key {
        ScriptKey::Int(_) => 8,
        ScriptKey::Text(s) => s.len(),
    }
}

/// How many values kept data holds, itself included.
fn data_values(value: &ScriptValue) -> usize {
    1 + match value {
        ScriptValue::List(items) => items.iter().map(data_values).sum(),
        ScriptValue::Map(map) => map.values().map(data_values).sum(),
        ScriptValue::Table(table) => table.values().map(data_values).sum(),
        _ => 0,
    }
}

/// Lua text as kept text: saves are UTF-8 JSON, and text changed on the way would not be what
/// was stored.
fn kept_text(s: &mlua::LuaString, what: &str) -> LuaResult<String> {
    match s.to_str() {
        Ok(text) => Ok(text.to_string()),
        Err(_) => err(format!(
            "game.put: {what} {} is not UTF-8 text, and only UTF-8 text can be kept",
            show_value(&LuaValue::String(s.clone()))
        )),
    }
}

/// Lua data as kept data, exactly: sequences as lists, string-keyed tables as maps, any other
/// table with its integer and string keys as they are. `size` (the game's data already kept)
/// grows with what is converted, and conversion stops once it passes [`MAX_DATA_SIZE`], so that
/// a table holding the same table twice at every level cannot make it copy for ever, and a huge
/// table is not walked whole; `path` holds the tables being converted, so a table holding
/// itself is refused. What cannot be kept (functions, coroutines, userdata, numbers that are
/// not finite, keys that are neither strings nor whole numbers) is refused, never dropped.
fn lua_to_script(
    value: &LuaValue,
    path: &mut Vec<*const std::ffi::c_void>,
    size: &mut usize,
) -> LuaResult<Option<ScriptValue>> {
    if path.len() > MAX_DATA_DEPTH {
        return err("game.put: the data is nested too deeply");
    }
    *size += DATA_VALUE_SIZE
        + match value {
            LuaValue::String(s) => s.as_bytes().len(),
            _ => 0,
        };
    let too_much =
        || err(format!("game.put: the game's kept data would pass {} KiB; keep only small data", MAX_DATA_SIZE / 1024));
    if *size > MAX_DATA_SIZE {
        return too_much();
    }
    Ok(Some(match value {
        LuaValue::Nil => return Ok(None),
        LuaValue::Boolean(b) => ScriptValue::Bool(*b),
        LuaValue::Integer(n) => ScriptValue::Int(*n),
        // Saves are JSON, which has no NaN or infinity: such a game could not be loaded again.
        LuaValue::Number(x) if !x.is_finite() => {
            return err(format!("game.put: {x} cannot be kept (only finite numbers)"));
        }
        LuaValue::Number(x) => ScriptValue::Num(*x),
        LuaValue::String(s) => ScriptValue::Text(kept_text(s, "the text")?),
        LuaValue::Table(t) => {
            let address = t.to_pointer();
            if path.contains(&address) {
                return err("game.put: the table holds itself (a cycle); only plain data without cycles can be kept");
            }
            path.push(address);
            let mut pairs: Vec<(ScriptKey, LuaValue)> = Vec::new();
            for pair in t.clone().pairs::<LuaValue, LuaValue>() {
                let (key, item) = pair?;
                let key = match key {
                    LuaValue::Integer(n) => ScriptKey::Int(n),
                    LuaValue::String(s) => ScriptKey::Text(kept_text(&s, "the key")?),
                    // Lua turns a float key with a whole value into an integer; what is left
                    // (1.5, math.huge) has no exact form in a save.
                    other => {
                        let what = match other {
                            LuaValue::Number(_) => "a number that is not whole".to_string(),
                            _ => describe_lua(&other),
                        };
                        return err(format!(
                            "game.put: a table key must be a string or a whole number, not {what} ({})",
                            show_value(&other)
                        ));
                    }
                };
                *size += key_size(&key);
                pairs.push((key, item));
                // Every value will count at least this much: a table too large is refused
                // before it is walked whole.
                if *size + pairs.len() * DATA_VALUE_SIZE > MAX_DATA_SIZE {
                    return too_much();
                }
            }
            let count = pairs.len();
            let is_sequence =
                pairs.iter().all(|(k, _)| matches!(k, ScriptKey::Int(n) if (1..=count as i64).contains(n)));
            let all_text = pairs.iter().all(|(k, _)| matches!(k, ScriptKey::Text(s) if s != TABLE_MARKER));
            let converted = if is_sequence {
                // `count` distinct keys, all within 1..=count: exactly the keys 1 to count.
                pairs.sort_by(|a, b| a.0.cmp(&b.0));
                let mut list = Vec::with_capacity(count);
                for (_, item) in &pairs {
                    list.extend(lua_to_script(item, path, size)?);
                }
                ScriptValue::List(list)
            } else if all_text {
                let mut map = BTreeMap::new();
                for (key, item) in pairs {
                    let ScriptKey::Text(key) = key else { continue };
                    if let Some(item) = lua_to_script(&item, path, size)? {
                        map.insert(key, item);
                    }
                }
                ScriptValue::Map(map)
            } else {
                let mut table = BTreeMap::new();
                for (key, item) in pairs {
                    if let Some(item) = lua_to_script(&item, path, size)? {
                        table.insert(key, item);
                    }
                }
                ScriptValue::Table(table)
            };
            path.pop();
            converted
        }
        other => {
            return err(format!(
                "game.put: only plain data can be kept (numbers, text, booleans, tables of them), not {}",
                describe_lua(other)
            ));
        }
    }))
}

fn script_to_lua(lua: &Lua, value: &ScriptValue) -> LuaResult<LuaValue> {
    Ok(match value {
        ScriptValue::Bool(b) => LuaValue::Boolean(*b),
        ScriptValue::Int(n) => LuaValue::Integer(*n),
        ScriptValue::Num(x) => LuaValue::Number(*x),
        ScriptValue::Text(s) => LuaValue::String(lua.create_string(s)?),
        ScriptValue::List(items) => {
            let table = lua.create_table_with_capacity(items.len(), 0)?;
            for item in items {
                table.raw_push(script_to_lua(lua, item)?)?;
            }
            LuaValue::Table(table)
        }
        ScriptValue::Map(map) => {
            let table = lua.create_table_with_capacity(0, map.len())?;
            for (k, v) in map {
                table.raw_set(k.as_str(), script_to_lua(lua, v)?)?;
            }
            LuaValue::Table(table)
        }
        ScriptValue::Table(entries) => {
            let table = lua.create_table()?;
            for (k, v) in entries {
                let value = script_to_lua(lua, v)?;
                match k {
                    ScriptKey::Int(n) => table.raw_set(*n, value)?,
                    ScriptKey::Text(s) => table.raw_set(s.as_str(), value)?,
                }
            }
            LuaValue::Table(table)
        }
    })
}
