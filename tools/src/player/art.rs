//! A mod's images as textures: each file the ruleset lists (checked at load) read once per
//! window — an SVG drawn by resvg at [`RASTER_SIDE`] pixels, a PNG decoded — and kept by its
//! file, in the egui context's memory. A file that no longer reads (changed since the load) is
//! remembered as such, and the window draws what it draws for a mod with no images: discs with
//! symbols, terrain colours, words.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui::{ColorImage, TextureHandle, TextureId, TextureOptions};
use meeple_engine::images::ImageFormat;
use meeple_engine::rules::Ruleset;

/// The longer side of an SVG drawn into a texture, in pixels: sharp on a piece 100 px across.
pub const RASTER_SIDE: u32 = 128;

/// Textures by file: `None` for a file that could not be read.
#[derive(Clone, Default)]
struct Textures(Arc<HashMap<PathBuf, Option<TextureHandle>>>);

/// The texture of the image the mod names `name` (as its TOML writes it), made on first use.
/// Terrain tiles repeat: their texture wraps.
pub fn texture(ctx: &egui::Context, rules: &Ruleset, name: &str) -> Option<TextureId> {
    let file = rules.images.get(name)?;
    let id = egui::Id::unique("meeple mod images");
    let known: Textures = ctx.data(|d| d.get_temp(id)).unwrap_or_default();
    if let Some(texture) = known.0.get(file) {
        return texture.as_ref().map(TextureHandle::id);
    }
    let made = pixels(file).map(|image| {
        let options = TextureOptions { wrap_mode: egui::TextureWrapMode::Repeat, ..TextureOptions::LINEAR };
        ctx.load_texture(file.display().to_string(), image, options)
    });
    let id_of = made.as_ref().map(TextureHandle::id);
    let mut all = (*known.0).clone();
    all.insert(file.clone(), made);
    ctx.data_mut(|d| d.insert_temp(id, Textures(Arc::new(all))));
    id_of
}

/// A button with the mod's image `name` (when it has one that reads) before its words.
pub fn button<'a>(
    ctx: &egui::Context,
    rules: &Ruleset,
    name: Option<&str>,
    text: impl Into<egui::WidgetText>,
) -> egui::Button<'a> {
    match name.and_then(|name| texture(ctx, rules, name)) {
        Some(texture) => egui::Button::image_and_text(
            egui::Image::from_texture(egui::load::SizedTexture::new(texture, egui::Vec2::splat(20.0))),
            text,
        ),
        None => egui::Button::new(text),
    }
}

/// The image of a piece kind, an item, a card or a terrain, by the data's id.
pub fn piece_image<'r>(rules: &'r Ruleset, kind: u16) -> Option<&'r str> {
    rules.data.pieces.get_index(kind as usize)?.1.image.as_deref()
}

pub fn item_image<'r>(rules: &'r Ruleset, item: u16) -> Option<&'r str> {
    let id = &rules.items.get(item as usize)?.id;
    rules.data.items.get(id)?.image.as_deref()
}

pub fn card_image<'r>(rules: &'r Ruleset, card: u16) -> Option<&'r str> {
    let id = rules.card_ids.get(card as usize)?;
    rules.data.cards.get(id)?.image.as_deref()
}

pub fn terrain_image<'r>(rules: &'r Ruleset, terrain: u16) -> Option<&'r str> {
    rules.data.terrain.get_index(terrain as usize)?.1.image.as_deref()
}

/// The image of what a choice stands for: an item (to buy, or held), a piece's kind, a card.
pub fn choice_image<'r>(
    rules: &'r Ruleset,
    state: &meeple_engine::game::GameState,
    kind: meeple_engine::defs::ParamKind,
    arg: i64,
) -> Option<&'r str> {
    use meeple_engine::defs::ParamKind;
    if let Some(item) = super::describe::arg_item(state, kind, arg) {
        return item_image(rules, item);
    }
    match kind {
        ParamKind::Piece => piece_image(rules, state.pieces.get(usize::try_from(arg).ok()?)?.kind),
        ParamKind::Card => card_image(rules, u16::try_from(arg).ok()?),
        _ => None,
    }
}

/// The pixels of an image file, or `None` when it does not read.
pub fn pixels(file: &Path) -> Option<ColorImage> {
    let bytes = meeple_engine::files::read_capped(
        file,
        meeple_engine::images::MAX_IMAGE_BYTES,
        meeple_engine::files::Links::Refuse,
    )
    .ok()?;
    match ImageFormat::of(&file.to_string_lossy())? {
        ImageFormat::Svg => svg_pixels(&bytes),
        ImageFormat::Png => png_pixels(&bytes),
    }
}

fn svg_pixels(bytes: &[u8]) -> Option<ColorImage> {
    let tree = resvg::usvg::Tree::from_data(bytes, &resvg::usvg::Options::default()).ok()?;
    let size = tree.size();
    let scale = RASTER_SIDE as f32 / size.width().max(size.height());
    let (width, height) = ((size.width() * scale).ceil() as u32, (size.height() * scale).ceil() as u32);
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width.max(1), height.max(1))?;
    resvg::render(&tree, resvg::tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    Some(ColorImage::from_rgba_premultiplied([pixmap.width() as usize, pixmap.height() as usize], pixmap.data()))
}

fn png_pixels(bytes: &[u8]) -> Option<ColorImage> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().ok()?;
    let mut buffer = vec![0; reader.output_buffer_size()?];
    let frame = reader.next_frame(&mut buffer).ok()?;
    let data = &buffer[..frame.buffer_size()];
    let rgba: Vec<u8> = match frame.color_type {
        png::ColorType::Rgba => data.to_vec(),
        png::ColorType::Rgb => data.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        png::ColorType::GrayscaleAlpha => data.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect(),
        png::ColorType::Grayscale => data.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => return None,
    };
    Some(ColorImage::from_rgba_unmultiplied([frame.width as usize, frame.height as usize], &rgba))
}
