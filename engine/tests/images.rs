//! A mod's images (`image = "images/…"` on terrain, piece kinds, items and cards): found in the
//! mod's folder or, for a variant, in the mods it extends, listed in the ruleset, and refused at
//! load where the key is written when missing (with the likely name), unreadable, outside the
//! folder or of another format.

mod common;

use std::path::Path;

use common::{manifest, write_mods};
use meeple_engine::loader::load_mod;

const SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="20" fill="#fff"/></svg>"##;

/// A 2×2 PNG, encoded here.
fn png() -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, 2, 2);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&[200; 16]).unwrap();
    writer.finish().unwrap();
    bytes
}

/// A road between two places, a porter and a lamp, each with an image.
const DATA: &str = r#"
[board]
kind = "graph"
terrain = "road"
spaces = [{ id = "s0" }, { id = "s1" }]
links = [["s0", "s1"]]

[terrain.road]
image = "images/road.png"

[pieces.porter]
image = "images/porter.svg"

[items.lamp]
image = "images/porter.svg"

[turn]
phases = [{ id = "main", actions = ["rest"] }]

[actions.rest]
label = "Rest"

[end]
win = "seat.number == 99"
"#;

fn with_images(data: &str) -> (&'static str, Vec<(&'static str, Vec<u8>)>) {
    (
        "porters",
        vec![
            ("mod.toml", manifest("porters").into_bytes()),
            ("data.toml", data.as_bytes().to_vec()),
            ("images/porter.svg", SVG.as_bytes().to_vec()),
            ("images/road.png", png()),
            ("images/broken.png", b"\x89PNG\r\n\x1a\nnot really".to_vec()),
            ("images/broken.svg", b"<svg><g></svg>".to_vec()),
        ],
    )
}

fn load(root: &Path, id: &str) -> Result<std::sync::Arc<meeple_engine::rules::Ruleset>, String> {
    load_mod(&root.join(id))
        .map(|l| l.ruleset)
        .map_err(|p| p.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))
}

#[test]
fn images_are_found_in_the_folder_and_listed_in_the_ruleset() {
    let root = write_mods(&[with_images(DATA)]);
    let rules = load(&root, "porters").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rules.images.len(), 2, "{:?}", rules.images);
    assert_eq!(rules.images["images/porter.svg"], root.join("porters/images/porter.svg"));
    assert_eq!(rules.images["images/road.png"], root.join("porters/images/road.png"));
    assert_eq!(rules.data.pieces["porter"].image.as_deref(), Some("images/porter.svg"));
}

#[test]
fn a_missing_unreadable_or_misplaced_image_is_refused_where_it_is_named() {
    let cases = [
        (
            "images/portr.svg",
            "no file `images/portr.svg` in the mod's folder",
            Some("did you mean `images/porter.svg`"),
        ),
        ("images/broken.png", "cannot read the image `images/broken.png`", None),
        ("images/broken.svg", "cannot read the image `images/broken.svg`", None),
        ("../porters/images/porter.svg", "is not a path inside the mod's folder", None),
        ("/etc/passwd.svg", "is not a path inside the mod's folder", None),
        ("images/porter.jpg", "is neither a PNG (.png) nor an SVG (.svg) file", None),
    ];
    for (written, said, hint) in cases {
        let data = DATA.replace(
            r#"image = "images/porter.svg"
"#,
            &format!("image = \"{written}\"\n"),
        );
        let root = write_mods(&[with_images(&data)]);
        let text = load(&root, "porters").unwrap_err();
        assert!(text.contains(said), "{written}: {text}");
        if let Some(hint) = hint {
            assert!(text.contains(hint), "{written}: {text}");
        }
        // Located at the piece kind's key (written first), and at the item's.
        let line = data.lines().position(|l| l.contains(written)).unwrap() + 1;
        assert!(text.contains(&format!("data.toml:{line}:")), "{written} at line {line}: {text}");
        assert!(text.contains("[pieces.porter] key `image`"), "{text}");
    }
}

#[test]
fn a_variant_finds_the_images_of_the_mod_it_extends_and_may_draw_its_own() {
    let variant = |files: Vec<(&'static str, Vec<u8>)>| {
        let mut all = vec![
            ("mod.toml", format!("{}extends = \"porters\"\n", manifest("night")).into_bytes()),
            ("night.toml", b"[terrain.road]\nlabel = \"Dark road\"\n".to_vec()),
        ];
        all.extend(files);
        ("night", all)
    };
    let root = write_mods(&[with_images(DATA), variant(Vec::new())]);
    let rules = load(&root, "night").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rules.images["images/road.png"], root.join("porters/images/road.png"), "the base's image");

    let root = write_mods(&[with_images(DATA), variant(vec![("images/road.png", png())])]);
    let rules = load(&root, "night").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rules.images["images/road.png"], root.join("night/images/road.png"), "the variant's own");
}
