//! Reading files Meeple did not write itself (a mod's files, saves, action scripts, the editor's
//! journal) and walking folders, the one way: only an ordinary file is read, never a device or a
//! pipe (which never end, or block for ever), a symbolic link only where the caller allows it,
//! and never more than a cap, counted on the bytes read rather than on the size announced.

use std::io::{self, Read};
use std::path::Path;

/// Whether a symbolic link may stand for the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Links {
    /// A link is refused without being followed: a mod's files, which must lie in its folder.
    Refuse,
    /// A link is followed, and what it leads to must be an ordinary file: a file the user names
    /// on the command line or in the window (a save, an action script).
    Follow,
}

/// Why a file was not read. The messages say what is wrong without naming the file: the caller
/// names it the way its user knows it.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot read the file: {0}")]
    Io(#[from] io::Error),
    #[error("the file is a symbolic link")]
    Link,
    #[error("this is not an ordinary file (a folder, device or pipe)")]
    NotAFile,
    #[error("the file is {bytes} bytes; at most {max} bytes are read")]
    TooLarge { bytes: u64, max: u64 },
}

/// Reads the ordinary file at `path`, at most `max_bytes` of it.
///
/// The file is checked before it is opened (opening a pipe waits for a writer) and checked again
/// once open: the file opened must be the one checked, so a link or a pipe put in its place
/// between the two is not read either. A file replaced in the meantime by another ordinary file
/// (a save written over it, atomically) is simply checked again. A file that grows while it is
/// read is refused as soon as it passes the cap.
pub fn read_capped(path: &Path, max_bytes: u64, links: Links) -> Result<Vec<u8>, ReadError> {
    // Enough for a file replaced by a writer or two while it is opened; a file replaced at every
    // try is not one to read.
    const TRIES: usize = 4;
    for _ in 0..TRIES {
        let checked = check(path, max_bytes, links)?;
        let file = open_without_waiting(path)?;
        let opened = file.metadata()?;
        if !same_file(&checked, &opened) {
            continue;
        }
        if !opened.is_file() {
            return Err(ReadError::NotAFile);
        }
        let mut bytes = Vec::new();
        file.take(max_bytes.saturating_add(1)).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > max_bytes {
            return Err(ReadError::TooLarge { bytes: bytes.len() as u64, max: max_bytes });
        }
        return Ok(bytes);
    }
    Err(ReadError::Io(io::Error::other("the file was replaced again and again while it was opened")))
}

/// The metadata of the file `path` names, when it may be read: an ordinary file (reached
/// through a link only when `links` allows it) of at most `max_bytes`.
fn check(path: &Path, max_bytes: u64, links: Links) -> Result<std::fs::Metadata, ReadError> {
    let mut checked = std::fs::symlink_metadata(path)?;
    if checked.file_type().is_symlink() {
        match links {
            Links::Refuse => return Err(ReadError::Link),
            Links::Follow => checked = std::fs::metadata(path)?,
        }
    }
    if !checked.is_file() {
        return Err(ReadError::NotAFile);
    }
    if checked.len() > max_bytes {
        return Err(ReadError::TooLarge { bytes: checked.len(), max: max_bytes });
    }
    Ok(checked)
}

/// Whether `path` is a folder of its own: a real folder, not a link to one (which could lead
/// anywhere on the machine). `false` when it does not exist.
pub fn is_real_folder(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

/// Whether `path` is a symbolic link (to anything, or to nothing).
pub fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Opens a file for reading without waiting: should a pipe take the place of the file checked
/// just before, opening it returns at once instead of waiting for a writer, and the check on
/// the open file refuses it. On a regular file the flag changes nothing.
fn open_without_waiting(path: &Path) -> io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(nonblocking_flag());
    }
    options.open(path)
}

/// `O_NONBLOCK` where its value is known without a C library binding (the engine has none); 0,
/// no flag, elsewhere, where only the check before opening stands between a reader and a pipe.
#[cfg(unix)]
fn nonblocking_flag() -> i32 {
    if cfg!(all(
        target_os = "linux",
        any(
            target_arch = "x86_64",
            target_arch = "x86",
            target_arch = "aarch64",
            target_arch = "arm",
            target_arch = "riscv64"
        )
    )) {
        0o4000
    } else if cfg!(any(target_os = "macos", target_os = "ios", target_os = "freebsd", target_os = "openbsd")) {
        0x4
    } else {
        0
    }
}

/// Whether two metadata describe the same file (device and inode on Unix; elsewhere only the
/// kind can be compared, and was).
fn same_file(checked: &std::fs::Metadata, opened: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        checked.dev() == opened.dev() && checked.ino() == opened.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (checked, opened);
        true
    }
}
