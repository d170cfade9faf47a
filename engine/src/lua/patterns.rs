//! The cost of Lua's string pattern functions, worked out before they run.
//!
//! `string.find`, `match`, `gmatch` and `gsub` run inside one C call that the instruction
//! limit cannot interrupt, and a pattern such as `("a*"):rep(40) .. "b"` backtracks for hours.
//! So the sandbox first replays the search with this port of Lua 5.4's matcher (`lstrlib.c`),
//! which only counts steps and gives up beyond a budget; the real function runs only when the
//! replay finished within it, and then does the same work again, which is known to be bounded.
//! Where Lua would raise an error (a malformed pattern) the replay stops and leaves the error
//! to the real function.

/// Deepest recursion of the matcher, as Lua's `MAXCCALLS` in `lstrlib.c`.
const MAX_MATCH_DEPTH: u32 = 200;
/// Most captures of one pattern, as `LUA_MAXCAPTURES`.
const MAX_CAPTURES: usize = 32;
const ESCAPE: u8 = b'%';
/// Characters that make `string.find` search with patterns instead of plainly.
const SPECIALS: &[u8] = b"^$*+?.([%-";

/// Why a replay stopped before its end.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Halt {
    /// More steps than the budget allowed.
    OverBudget,
    /// Lua raises an error here (malformed pattern, bad capture); the real call reports it.
    LuaError,
}

/// How much searching a call does: its steps, stopped at `budget`. Only counted, never timed, so
/// a search stops at the same step on every machine.
pub(crate) struct Counter {
    pub steps: u64,
    budget: u64,
}

impl Counter {
    pub fn new(budget: u64) -> Self {
        Self { steps: 0, budget }
    }

    fn add(&mut self, steps: u64) -> Result<(), Halt> {
        self.steps = self.steps.saturating_add(steps);
        if self.steps > self.budget {
            return Err(Halt::OverBudget);
        }
        Ok(())
    }
}

const UNFINISHED: isize = -1;
const POSITION: isize = -2;

struct Matcher<'a> {
    subject: &'a [u8],
    pattern: &'a [u8],
    depth: u32,
    level: usize,
    captures: [(usize, isize); MAX_CAPTURES],
    counter: &'a mut Counter,
}

/// The byte at `i`, or 0 past the end: Lua strings end with a NUL the C code reads.
fn at(bytes: &[u8], i: usize) -> u8 {
    bytes.get(i).copied().unwrap_or(0)
}

/// C's character classes in the "C" locale, the only one a sandboxed state has.
fn class_matches(c: u8, class: u8) -> bool {
    let result = match class.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c < 32 || c == 127,
        b'd' => c.is_ascii_digit(),
        b'g' => (33..=126).contains(&c),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        b's' => matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        b'z' => c == 0,
        _ => return class == c,
    };
    if class.is_ascii_lowercase() { result } else { !result }
}

impl Matcher<'_> {
    fn class_end(&mut self, mut p: usize) -> Result<usize, Halt> {
        let start = p;
        let first = at(self.pattern, p);
        p += 1;
        let end = match first {
            ESCAPE => {
                if p >= self.pattern.len() {
                    return Err(Halt::LuaError);
                }
                p + 1
            }
            b'[' => {
                if at(self.pattern, p) == b'^' {
                    p += 1;
                }
                loop {
                    if p >= self.pattern.len() {
                        return Err(Halt::LuaError);
                    }
                    let c = at(self.pattern, p);
                    p += 1;
                    if c == ESCAPE && p < self.pattern.len() {
                        p += 1;
                    }
                    if at(self.pattern, p) == b']' {
                        break;
                    }
                }
                p + 1
            }
            _ => p,
        };
        self.counter.add((end - start) as u64)?;
        Ok(end)
    }

    fn bracket_class(&self, c: u8, mut p: usize, end: usize) -> bool {
        let mut matched = true;
        if at(self.pattern, p + 1) == b'^' {
            matched = false;
            p += 1;
        }
        loop {
            p += 1;
            if p >= end {
                break;
            }
            let here = at(self.pattern, p);
            if here == ESCAPE {
                p += 1;
                if class_matches(c, at(self.pattern, p)) {
                    return matched;
                }
            } else if at(self.pattern, p + 1) == b'-' && p + 2 < end {
                p += 2;
                if at(self.pattern, p - 2) <= c && c <= at(self.pattern, p) {
                    return matched;
                }
            } else if here == c {
                return matched;
            }
        }
        !matched
    }

    fn single(&mut self, s: usize, p: usize, ep: usize) -> Result<bool, Halt> {
        if s >= self.subject.len() {
            return Ok(false);
        }
        let c = self.subject[s];
        Ok(match at(self.pattern, p) {
            b'.' => true,
            ESCAPE => class_matches(c, at(self.pattern, p + 1)),
            b'[' => {
                self.counter.add((ep - p) as u64)?;
                self.bracket_class(c, p, ep - 1)
            }
            other => other == c,
        })
    }

    fn balance(&mut self, mut s: usize, p: usize) -> Result<Option<usize>, Halt> {
        if p + 1 >= self.pattern.len() {
            return Err(Halt::LuaError);
        }
        if at(self.subject, s) != at(self.pattern, p) {
            return Ok(None);
        }
        let (open, close) = (at(self.pattern, p), at(self.pattern, p + 1));
        let mut depth = 1;
        let start = s;
        s += 1;
        while s < self.subject.len() {
            let c = self.subject[s];
            if c == close {
                depth -= 1;
                if depth == 0 {
                    self.counter.add((s - start) as u64)?;
                    return Ok(Some(s + 1));
                }
            } else if c == open {
                depth += 1;
            }
            s += 1;
        }
        self.counter.add((s - start) as u64)?;
        Ok(None)
    }

    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Result<Option<usize>, Halt> {
        let mut count = 0;
        while self.single(s + count, p, ep)? {
            count += 1;
            self.counter.add(1)?;
        }
        loop {
            if let Some(end) = self.do_match(s + count, ep + 1)? {
                return Ok(Some(end));
            }
            if count == 0 {
                return Ok(None);
            }
            count -= 1;
        }
    }

    fn min_expand(&mut self, mut s: usize, p: usize, ep: usize) -> Result<Option<usize>, Halt> {
        loop {
            if let Some(end) = self.do_match(s, ep + 1)? {
                return Ok(Some(end));
            }
            if self.single(s, p, ep)? {
                s += 1;
            } else {
                return Ok(None);
            }
        }
    }

    fn start_capture(&mut self, s: usize, p: usize, what: isize) -> Result<Option<usize>, Halt> {
        if self.level >= MAX_CAPTURES {
            return Err(Halt::LuaError);
        }
        self.captures[self.level] = (s, what);
        self.level += 1;
        let result = self.do_match(s, p)?;
        if result.is_none() {
            self.level -= 1;
        }
        Ok(result)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Result<Option<usize>, Halt> {
        let open = (0..self.level).rev().find(|&l| self.captures[l].1 == UNFINISHED).ok_or(Halt::LuaError)?;
        self.captures[open].1 = (s - self.captures[open].0) as isize;
        let result = self.do_match(s, p)?;
        if result.is_none() {
            self.captures[open].1 = UNFINISHED;
        }
        Ok(result)
    }

    fn match_capture(&mut self, s: usize, digit: u8) -> Result<Option<usize>, Halt> {
        let l = digit.wrapping_sub(b'1') as usize;
        if l >= self.level || self.captures[l].1 == UNFINISHED {
            return Err(Halt::LuaError);
        }
        let (start, len) = self.captures[l];
        // A position capture has no text; Lua compares its (huge, as a size) length and fails.
        let Ok(len) = usize::try_from(len) else { return Ok(None) };
        self.counter.add(len as u64)?;
        if self.subject.len() - s >= len && self.subject[start..start + len] == self.subject[s..s + len] {
            Ok(Some(s + len))
        } else {
            Ok(None)
        }
    }

    /// Lua's `match`: where the pattern from `p` matches the subject from `s` to, if it does.
    fn do_match(&mut self, mut s: usize, mut p: usize) -> Result<Option<usize>, Halt> {
        if self.depth == 0 {
            return Err(Halt::LuaError);
        }
        self.depth -= 1;
        let result = loop {
            self.counter.add(1)?;
            if p == self.pattern.len() {
                break Some(s);
            }
            match self.pattern[p] {
                b'(' => {
                    break if at(self.pattern, p + 1) == b')' {
                        self.start_capture(s, p + 2, POSITION)?
                    } else {
                        self.start_capture(s, p + 1, UNFINISHED)?
                    };
                }
                b')' => break self.end_capture(s, p + 1)?,
                b'$' if p + 1 == self.pattern.len() => break (s == self.subject.len()).then_some(s),
                ESCAPE if at(self.pattern, p + 1) == b'b' => match self.balance(s, p + 2)? {
                    Some(end) => {
                        s = end;
                        p += 4;
                        continue;
                    }
                    None => break None,
                },
                ESCAPE if at(self.pattern, p + 1) == b'f' => {
                    p += 2;
                    if at(self.pattern, p) != b'[' {
                        return Err(Halt::LuaError);
                    }
                    let ep = self.class_end(p)?;
                    let previous = if s == 0 { 0 } else { self.subject[s - 1] };
                    if !self.bracket_class(previous, p, ep - 1) && self.bracket_class(at(self.subject, s), p, ep - 1) {
                        p = ep;
                        continue;
                    }
                    break None;
                }
                ESCAPE if at(self.pattern, p + 1).is_ascii_digit() => {
                    match self.match_capture(s, at(self.pattern, p + 1))? {
                        Some(end) => {
                            s = end;
                            p += 2;
                            continue;
                        }
                        None => break None,
                    }
                }
                _ => {
                    let ep = self.class_end(p)?;
                    let suffix = at(self.pattern, ep);
                    if !self.single(s, p, ep)? {
                        if matches!(suffix, b'*' | b'?' | b'-') {
                            p = ep + 1;
                            continue;
                        }
                        break None;
                    }
                    match suffix {
                        b'?' => {
                            if let Some(end) = self.do_match(s + 1, ep + 1)? {
                                break Some(end);
                            }
                            p = ep + 1;
                            continue;
                        }
                        b'+' => break self.max_expand(s + 1, p, ep)?,
                        b'*' => break self.max_expand(s, p, ep)?,
                        b'-' => break self.min_expand(s, p, ep)?,
                        _ => {
                            s += 1;
                            p = ep;
                            continue;
                        }
                    }
                }
            }
        };
        self.depth += 1;
        Ok(result)
    }

    /// Matches from `s` with a fresh state, as Lua's `reprepstate` before each attempt.
    fn attempt(&mut self, s: usize, p: usize) -> Result<Option<usize>, Halt> {
        self.depth = MAX_MATCH_DEPTH;
        self.level = 0;
        self.do_match(s, p)
    }
}

fn matcher<'a>(subject: &'a [u8], pattern: &'a [u8], counter: &'a mut Counter) -> Matcher<'a> {
    Matcher { subject, pattern, depth: MAX_MATCH_DEPTH, level: 0, captures: [(0, 0); MAX_CAPTURES], counter }
}

/// Lua's `posrelatI`: a 1-based start position, negative counting from the end, as 0-based.
pub(crate) fn start_index(position: i64, len: usize) -> usize {
    let len_i = len as i64;
    let one_based = if position > 0 {
        position as u64
    } else if position == 0 || position < -len_i {
        1
    } else {
        (len_i + position + 1) as u64
    };
    usize::try_from(one_based - 1).unwrap_or(usize::MAX)
}

/// The work of `string.find` (`find`) or `string.match` from 1-based `init`.
pub(crate) fn find(
    subject: &[u8],
    pattern: &[u8],
    init: i64,
    plain: bool,
    find: bool,
    counter: &mut Counter,
) -> Result<(), Halt> {
    let init = start_index(init, subject.len());
    if init > subject.len() {
        return Ok(());
    }
    if find && (plain || !pattern.iter().any(|c| SPECIALS.contains(c))) {
        return plain_find(&subject[init..], pattern, counter);
    }
    let anchored = pattern.first() == Some(&b'^');
    let pattern = if anchored { &pattern[1..] } else { pattern };
    let mut m = matcher(subject, pattern, counter);
    let mut s = init;
    loop {
        if m.attempt(s, 0)?.is_some() {
            return Ok(());
        }
        s += 1;
        if s > subject.len() || anchored {
            return Ok(());
        }
    }
}

/// Lua's `lmemfind`: each occurrence of the first byte, then a comparison of the rest.
fn plain_find(subject: &[u8], needle: &[u8], counter: &mut Counter) -> Result<(), Halt> {
    let Some((&first, rest)) = needle.split_first() else { return Ok(()) };
    if needle.len() > subject.len() {
        return Ok(());
    }
    let last_start = subject.len() - needle.len();
    let mut from = 0;
    while from <= last_start {
        let Some(offset) = subject[from..=last_start].iter().position(|&c| c == first) else {
            counter.add((last_start + 1 - from) as u64)?;
            return Ok(());
        };
        let candidate = from + offset;
        let compared = subject[candidate + 1..].iter().zip(rest).take_while(|(a, b)| a == b).count();
        counter.add((offset + 1 + compared) as u64)?;
        if compared == rest.len() {
            return Ok(());
        }
        from = candidate + 1;
    }
    Ok(())
}

/// The matching work of `string.gsub` with at most `limit` replacements.
pub(crate) fn gsub(subject: &[u8], pattern: &[u8], limit: i64, counter: &mut Counter) -> Result<(), Halt> {
    let anchored = pattern.first() == Some(&b'^');
    let pattern = if anchored { &pattern[1..] } else { pattern };
    let mut m = matcher(subject, pattern, counter);
    let (mut s, mut last_match, mut replaced) = (0, None, 0);
    while replaced < limit {
        match m.attempt(s, 0)? {
            Some(end) if Some(end) != last_match => {
                replaced += 1;
                s = end;
                last_match = Some(end);
            }
            _ if s < subject.len() => s += 1,
            _ => break,
        }
        if anchored {
            break;
        }
    }
    Ok(())
}

/// Where a `string.gmatch` iteration stands, so that each step's work is counted before the
/// real iterator does it.
pub(crate) struct GmatchPosition {
    next: usize,
    last_match: Option<usize>,
}

impl GmatchPosition {
    /// The position of an iteration from 1-based `init`.
    pub fn new(subject_len: usize, init: i64) -> Self {
        Self { next: start_index(init, subject_len).min(subject_len + 1), last_match: None }
    }

    /// The work of the next step of `gmatch_aux`, advancing as it will.
    pub fn step(&mut self, subject: &[u8], pattern: &[u8], counter: &mut Counter) -> Result<(), Halt> {
        let mut m = matcher(subject, pattern, counter);
        let mut s = self.next;
        while s <= subject.len() {
            if let Some(end) = m.attempt(s, 0)?
                && Some(end) != self.last_match
            {
                self.next = end;
                self.last_match = Some(end);
                return Ok(());
            }
            s += 1;
        }
        // Like `gmatch_aux`, a search that finds nothing keeps its start: calling the spent
        // iterator again searches (and costs) again.
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(subject: &str, pattern: &str) -> Result<u64, Halt> {
        let mut counter = Counter::new(10_000_000);
        find(subject.as_bytes(), pattern.as_bytes(), 1, false, true, &mut counter).map(|()| counter.steps)
    }

    #[test]
    fn ordinary_patterns_are_cheap() {
        assert!(steps("hello world", "o w").unwrap() < 50);
        assert!(steps("key = value", "^(%w+)%s*=%s*(%w+)$").unwrap() < 200);
        assert!(steps("f(a(b)c)", "%b()").unwrap() < 50);
        assert!(steps("THE (quick) fox", "%f[%a]%a+").unwrap() < 100);
        assert!(steps("abcabc", "(abc)%1").unwrap() < 100);
    }

    #[test]
    fn backtracking_patterns_run_out_of_budget() {
        let subject = "a".repeat(40);
        assert_eq!(steps(&subject, &format!("{}b", "a*".repeat(40))), Err(Halt::OverBudget));
        let mut counter = Counter::new(1_000_000);
        let long = "a".repeat(5_000);
        assert_eq!(gsub(long.as_bytes(), b".-.-b", i64::MAX, &mut counter), Err(Halt::OverBudget));
    }

    #[test]
    fn malformed_patterns_are_left_to_lua() {
        assert_eq!(steps("abc", "[a"), Err(Halt::LuaError));
        assert_eq!(steps("abc", "%"), Err(Halt::LuaError));
        assert!(steps("abc", "(a").is_ok(), "an unfinished capture is only an error once returned");
        assert_eq!(steps("abc", "%1"), Err(Halt::LuaError));
    }

    #[test]
    fn plain_search_counts_its_comparisons() {
        let mut counter = Counter::new(u64::MAX);
        let subject = "a".repeat(10_000);
        let needle = format!("{}b", "a".repeat(100));
        find(subject.as_bytes(), needle.as_bytes(), 1, true, true, &mut counter).unwrap();
        assert!(counter.steps > 900_000, "{}", counter.steps);
    }
}
