//! Actions as the engine handles them (compact, `Copy`) and as people and files write them
//! (`{ "action": "attack", "from": "12", "to": "7" }`).

use serde::{Deserialize, Serialize};

/// Most parameters an action can have.
pub const MAX_PARAMS: usize = 4;

/// The argument of a parameter not chosen yet: the `after_roll` choices of an action's first
/// step (its roll).
pub const NOT_CHOSEN: i64 = i64::MIN;

/// Which action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ActionKind {
    /// An action the mod defines, by index.
    Rule(u16),
    /// End the current phase (in the last phase: the turn).
    Pass,
    /// The seat leaves the game.
    Leave,
    /// Cancels the action whose dice were rolled and whose `after_roll` choices are awaited;
    /// the action stays spent.
    Cancel,
}

/// A fully chosen action: kind plus its parameter values (space ids, seat indices, piece ids or
/// numbers, by the parameter's kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Action {
    pub kind: ActionKind,
    pub args: [i64; MAX_PARAMS],
}

impl Action {
    pub fn pass() -> Self {
        Self { kind: ActionKind::Pass, args: [0; MAX_PARAMS] }
    }

    pub fn leave() -> Self {
        Self { kind: ActionKind::Leave, args: [0; MAX_PARAMS] }
    }

    pub fn cancel() -> Self {
        Self { kind: ActionKind::Cancel, args: [0; MAX_PARAMS] }
    }

    pub fn rule(index: u16, args: &[i64]) -> Self {
        let mut all = [0; MAX_PARAMS];
        all[..args.len().min(MAX_PARAMS)].copy_from_slice(&args[..args.len().min(MAX_PARAMS)]);
        Self { kind: ActionKind::Rule(index), args: all }
    }

    pub fn is_pass(&self) -> bool {
        self.kind == ActionKind::Pass
    }
}

/// An action as written in files and shown to people: the action id, the acting seat
/// (1-based; the seat to move when absent) and each parameter by name, spaces by label.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ActionRecord {
    /// The acting seat, 1-based. Only `leave` may be taken out of turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// The action's id, or `pass` / `leave` / `cancel`.
    pub action: String,
    /// Parameter values by name: space labels as text, seats as 1-based numbers, pieces as
    /// 1-based ids, numbers as numbers.
    #[serde(flatten)]
    pub args: std::collections::BTreeMap<String, serde_json::Value>,
}
