//! Reading Lua 5.4's compiled code (the format of `lua_dump`, `ldump.c`) to find instructions
//! the sandbox refuses, whatever text produced them.
//!
//! Only the to-be-closed marker `OP_TBC` is looked for: a `local x <close>` compiles to it,
//! however the attribute is spelled, and nothing else does. (A generic `for` marks its fourth
//! value to be closed too, with `OP_TFORPREP`; that value can never have a `__close`, since the
//! sandbox refuses the metamethod, see `sandbox.rs`.)

/// `OP_TBC`'s number in Lua 5.4's `lopcodes.h` (the vendored 5.4.9; a unit test compiles a
/// `<close>` and checks it is found, so a Lua with other numbers fails that test).
const OP_TBC: u32 = 55;
/// The low bits of an instruction that hold its opcode (`SIZE_OP`).
const OPCODE_MASK: u32 = 0x7f;
/// A line-info entry saying "see the absolute line list" (`ABSLINEINFO`).
const ABSOLUTE_LINE_INFO: i8 = -0x80;

/// Searches a dumped chunk (`Function::dump`, with its debug information for the line) and all
/// its nested functions for a to-be-closed variable.
pub(crate) fn to_be_closed_line(dump: &[u8]) -> Scan {
    let mut reader = Reader { bytes: dump, at: 0 };
    match reader.chunk() {
        Some(Some(found)) => Scan::Found(found),
        Some(None) => Scan::Clean,
        None => Scan::Unreadable,
    }
}

/// What a scan of compiled code found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Scan {
    /// No to-be-closed variable.
    Clean,
    /// A to-be-closed variable, at this line when the dump has lines.
    Found(Option<usize>),
    /// The dump is not in the format this reader knows (another Lua version): the caller
    /// refuses the chunk rather than trust it.
    Unreadable,
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn bytes(&mut self, count: usize) -> Option<&[u8]> {
        let end = self.at.checked_add(count)?;
        let slice = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(slice)
    }

    fn byte(&mut self) -> Option<u8> {
        Some(self.bytes(1)?[0])
    }

    /// `loadSize`: seven bits a byte, most significant first, the last byte marked by 0x80.
    fn size(&mut self) -> Option<usize> {
        let mut value: usize = 0;
        loop {
            let byte = self.byte()?;
            value = value.checked_mul(128)?.checked_add(usize::from(byte & 0x7f))?;
            if byte & 0x80 != 0 {
                return Some(value);
            }
        }
    }

    /// `loadString`: a size (0 for none, else length + 1) and the bytes.
    fn skip_string(&mut self) -> Option<()> {
        let size = self.size()?;
        if size > 0 {
            self.bytes(size - 1)?;
        }
        Some(())
    }

    /// The header, the main function's upvalue count, then the main function: `None` when
    /// unreadable, else the first `OP_TBC` found (with its line, when known).
    fn chunk(&mut self) -> Option<Option<Option<usize>>> {
        // Signature, version 5.4, official format, the conversion check bytes.
        if self.bytes(4)? != b"\x1bLua" || self.byte()? != 0x54 || self.byte()? != 0 {
            return None;
        }
        if self.bytes(6)? != b"\x19\x93\r\n\x1a\n" {
            return None;
        }
        // Sizes of an instruction, an integer and a float.
        if self.bytes(3)? != [4, 8, 8] {
            return None;
        }
        self.bytes(8 + 8)?;
        self.byte()?;
        self.function()
    }

    /// `loadFunction`: the first `OP_TBC` of this function or a nested one.
    fn function(&mut self) -> Option<Option<Option<usize>>> {
        self.skip_string()?;
        let line_defined = self.size()?;
        self.size()?;
        self.bytes(3)?;
        let code_size = self.size()?;
        let code = self.bytes(code_size.checked_mul(4)?)?;
        let to_be_closed = code
            .chunks_exact(4)
            .position(|word| u32::from_le_bytes([word[0], word[1], word[2], word[3]]) & OPCODE_MASK == OP_TBC);
        // Constants.
        for _ in 0..self.size()? {
            match self.byte()? {
                0 | 1 | 17 => {}
                3 | 19 => {
                    self.bytes(8)?;
                }
                4 | 20 => self.skip_string()?,
                _ => return None,
            }
        }
        // Upvalues: in stack, index, kind.
        let upvalues = self.size()?;
        self.bytes(upvalues.checked_mul(3)?)?;
        let mut nested = None;
        for _ in 0..self.size()? {
            let found = self.function()?;
            nested = nested.or(found);
        }
        // Debug information: relative lines, absolute lines, locals, upvalue names.
        let line_info_size = self.size()?;
        let line_info: Vec<i8> = self.bytes(line_info_size)?.iter().map(|b| *b as i8).collect();
        let mut absolute = Vec::new();
        for _ in 0..self.size()? {
            absolute.push((self.size()?, self.size()?));
        }
        for _ in 0..self.size()? {
            self.skip_string()?;
            self.size()?;
            self.size()?;
        }
        for _ in 0..self.size()? {
            self.skip_string()?;
        }
        match to_be_closed {
            Some(pc) => Some(Some(line_of(pc, line_defined, &line_info, &absolute))),
            None => Some(nested),
        }
    }
}

/// `luaG_getfuncline`: the line of instruction `pc`, from the last absolute line at or before
/// it plus the relative steps after that; `None` without line information.
fn line_of(pc: usize, line_defined: usize, line_info: &[i8], absolute: &[(usize, usize)]) -> Option<usize> {
    if line_info.len() <= pc {
        return None;
    }
    let (mut base_pc, mut line) = match absolute.iter().rev().find(|(at, _)| *at <= pc) {
        Some(&(at, line)) => (Some(at), line as i64),
        None => (None, line_defined as i64),
    };
    loop {
        let next = base_pc.map_or(0, |p| p + 1);
        if next > pc {
            break;
        }
        let step = line_info[next];
        if step == ABSOLUTE_LINE_INFO {
            return None;
        }
        line += i64::from(step);
        base_pc = Some(next);
    }
    usize::try_from(line).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(code: &str) -> Scan {
        let lua = mlua::Lua::new();
        let function = lua.load(code).into_function().expect("compiles");
        to_be_closed_line(&function.dump(false))
    }

    #[test]
    fn finds_to_be_closed_variables_in_any_function_with_their_line() {
        assert_eq!(scan("local x <close> = nil"), Scan::Found(Some(1)));
        assert_eq!(
            scan("local a = 1\nlocal function f()\n  return function()\n    local y <close> = nil\n  end\nend"),
            Scan::Found(Some(4))
        );
        let long = format!("{}local z <close> = nil\n", "v = 1\n".repeat(300));
        assert_eq!(scan(&long), Scan::Found(Some(301)));
        let stripped = mlua::Lua::new().load("local x <close> = nil").into_function().unwrap().dump(true);
        assert_eq!(to_be_closed_line(&stripped), Scan::Found(None));
    }

    #[test]
    fn ordinary_code_is_clean() {
        for code in [
            "local x <const> = 1 return x",
            "for k, v in pairs({}) do end",
            "local s = 'local x <close> = nil' return s",
            "local t = { 1, 2.5, 'x', true, false, nil } return function(...) return t, ... end",
        ] {
            assert_eq!(scan(code), Scan::Clean, "{code}");
        }
        assert_eq!(to_be_closed_line(b"\x1bLua\x53"), Scan::Unreadable);
        assert_eq!(to_be_closed_line(b""), Scan::Unreadable);
    }
}
