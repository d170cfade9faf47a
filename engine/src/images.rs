//! A mod's images: the files its TOML names (`image = "images/forest.svg"`) for terrain, piece
//! kinds, items and cards. Each is found in the mod's folder — a variant's own first, then the
//! mods it extends, base last — and checked at load: a relative path that stays inside the
//! folder, a PNG or SVG file, at most [`MAX_IMAGE_BYTES`], that decodes. The engine draws
//! nothing; the window reads the files the ruleset lists ([`crate::rules::Ruleset::images`]).

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use crate::defs::ModData;
use crate::diag::did_you_mean;
use crate::files::{Links, ReadError, read_capped};
use crate::rules::compile::Problem;
use crate::source::PathSegment as PathSeg;

/// The largest image file a mod may ship.
pub const MAX_IMAGE_BYTES: u64 = 4 << 20;

/// The largest width or height of a PNG, in pixels: an icon or a tile, not a photograph.
pub const MAX_PNG_SIDE: u32 = 4096;

/// The kinds of image file a mod may ship.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    Png,
    Svg,
}

impl ImageFormat {
    /// The format a file name says, by its extension.
    pub fn of(name: &str) -> Option<Self> {
        let extension = Path::new(name).extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "png" => Some(ImageFormat::Png),
            "svg" => Some(ImageFormat::Svg),
            _ => None,
        }
    }
}

/// Every `image` the data names, with where it is written.
pub fn image_keys(data: &ModData) -> Vec<(Vec<PathSeg>, String)> {
    let at = |section: &str, id: &str| {
        vec![PathSeg::Key(section.into()), PathSeg::Key(id.into()), PathSeg::Key("image".into())]
    };
    let mut keys = Vec::new();
    let terrain = data.terrain.iter().map(|(id, d)| (at("terrain", id), d.image.clone()));
    let pieces = data.pieces.iter().map(|(id, d)| (at("pieces", id), d.image.clone()));
    let items = data.items.iter().map(|(id, d)| (at("items", id), d.image.clone()));
    let cards = data.cards.iter().map(|(id, d)| (at("cards", id), d.image.clone()));
    for (path, image) in terrain.chain(pieces).chain(items).chain(cards) {
        if let Some(image) = image {
            keys.push((path, image));
        }
    }
    keys
}

/// Finds and checks every image the data names in `folders` (the mod's first, then the mods it
/// extends, nearest first): where each lies, by the name written, and the problems, located at
/// the keys that name them.
pub fn find_all(data: &ModData, folders: &[PathBuf]) -> (BTreeMap<String, PathBuf>, Vec<Problem>) {
    let mut found = BTreeMap::new();
    let mut problems = Vec::new();
    for (path, name) in image_keys(data) {
        if found.contains_key(&name) {
            continue;
        }
        match find_image(&name, folders) {
            Ok(file) => {
                found.insert(name, file);
            }
            Err((message, suggestion)) => problems.push(Problem { path, span: None, message, suggestion }),
        }
    }
    (found, problems)
}

/// Finds one image and checks it: its file, or why it cannot be used (with a likely name).
pub fn find_image(name: &str, folders: &[PathBuf]) -> Result<PathBuf, (String, Option<String>)> {
    let relative = Path::new(name);
    let inside =
        !name.is_empty() && relative.components().all(|c| matches!(c, Component::Normal(_))) && !name.contains('\\');
    if !inside {
        let message = format!(
            "`{name}` is not a path inside the mod's folder: write it relative to the folder with `/`, \
             such as `images/forest.svg`, without `..`"
        );
        return Err((message, None));
    }
    let Some(format) = ImageFormat::of(name) else {
        return Err((format!("`{name}` is neither a PNG (.png) nor an SVG (.svg) file"), None));
    };
    let Some(file) = folders.iter().map(|folder| folder.join(relative)).find(|file| file.exists()) else {
        let message = match folders.len() {
            0 | 1 => format!("no file `{name}` in the mod's folder"),
            _ => format!("no file `{name}` in the mod's folder or the folders of the mods it extends"),
        };
        return Err((message, nearby_name(name, folders)));
    };
    let bytes = read_capped(&file, MAX_IMAGE_BYTES, Links::Refuse).map_err(|error| {
        let why = match error {
            ReadError::Link => "it is a symbolic link; a mod's files must be ordinary files inside its folder".into(),
            ReadError::NotAFile => "it is not an ordinary file".into(),
            ReadError::TooLarge { bytes, .. } => {
                format!("it is {bytes} bytes; an image may be at most {MAX_IMAGE_BYTES} bytes")
            }
            ReadError::Io(error) => error.to_string(),
        };
        (format!("cannot use the image `{name}`: {why}"), None)
    })?;
    check_image(format, &bytes).map_err(|why| (format!("cannot read the image `{name}`: {why}"), None))?;
    Ok(file)
}

/// Whether the bytes are an image of the format that can be drawn: the whole PNG decodes, with
/// sides of at most [`MAX_PNG_SIDE`]; the SVG parses and has a size.
pub fn check_image(format: ImageFormat, bytes: &[u8]) -> Result<(), String> {
    match format {
        ImageFormat::Png => {
            let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().map_err(|e| e.to_string())?;
            let (width, height) = (reader.info().width, reader.info().height);
            if width > MAX_PNG_SIDE || height > MAX_PNG_SIDE {
                return Err(format!("it is {width}×{height} pixels; at most {MAX_PNG_SIDE} a side"));
            }
            let size = reader.output_buffer_size().ok_or("it is too large to decode")?;
            let mut pixels = vec![0; size];
            reader.next_frame(&mut pixels).map_err(|e| e.to_string())?;
            Ok(())
        }
        ImageFormat::Svg => {
            let tree = usvg::Tree::from_data(bytes, &usvg::Options::default()).map_err(|e| e.to_string())?;
            let size = tree.size();
            if size.width() <= 0.0 || size.height() <= 0.0 {
                return Err("it has no size (give the <svg> a viewBox)".into());
            }
            Ok(())
        }
    }
}

/// The name of an image file next to where `name` points whose name is close to it.
fn nearby_name(name: &str, folders: &[PathBuf]) -> Option<String> {
    let relative = Path::new(name);
    let directory = relative.parent().unwrap_or(Path::new(""));
    let mut names = Vec::new();
    for folder in folders {
        let Ok(entries) = std::fs::read_dir(folder.join(directory)) else { continue };
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().to_string();
            if ImageFormat::of(&file).is_some() {
                names.push(directory.join(&file).to_string_lossy().replace('\\', "/"));
            }
        }
    }
    did_you_mean(name, names.iter().map(String::as_str))
}
