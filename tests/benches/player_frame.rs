//! Benchmark: the player window's CPU time per frame on Dunes of Terror's 26 x 100 board. One
//! frame is what eframe does on the CPU before handing triangles to the GPU: running the whole
//! UI (`PlayerApp::ui` in `Context::run_ui`) and tessellating its shapes, on a 1280 x 800 screen
//! at one pixel per point. The game is started with seed 1 and the default setup (the first
//! seat a person, the others computers) and paused, so nothing moves between frames.
//!
//! Views: the default one (the board at its starting zoom, about half the rows in view, with
//! cell outlines and rulers); the same with the pointer over the board (hovered space, tooltip);
//! the same in motion (a die tumbling, a piece travelling six steps, a hit flashing with its
//! loss rising and a banner, started again whenever it ends); and zoomed out until the whole
//! board is in view (every cell drawn). Dice Wars' territory map
//! at its default view for comparison. The issue asks for at most 4 ms a frame on the project's
//! 2-core machine.
//!
//! `cargo bench -p meeple-tests --bench player_frame`; figures in `docs/performance.md`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use egui::{Event, Pos2, RawInput, Rect, pos2, vec2};
use meeple::player::catalog::{ModEntry, Origin};
use meeple::player::session::RollShown;
use meeple::player::{PlayerApp, StartOptions};
use meeple_engine::game::Event as GameEvent;
use meeple_tests::mods_dir;

/// The window's size in points (and pixels).
const SCREEN: [f32; 2] = [1280.0, 800.0];
/// A point in the middle of the board area (left of the side panel, below the top bar).
const OVER_BOARD: Pos2 = pos2(475.0, 400.0);

/// A window with a started, paused game of a bundled mod.
struct Window {
    ctx: egui::Context,
    app: PlayerApp,
    /// Whether each frame keeps motion playing ([`Window::keep_moving`]).
    moving: bool,
}

impl Window {
    fn new(id: &str) -> Self {
        let mods = vec![ModEntry::load(&mods_dir().join(id), Origin::Bundled)];
        let options = StartOptions { mod_name: Some(id.into()), start: true, seed: Some(1), ..Default::default() };
        let mut app = PlayerApp::with_mods(mods, options);
        app.game_mut().expect("the game starts at once").paused = true;
        let mut window = Self { ctx: egui::Context::default(), app, moving: false };
        // The first frames build the fonts and settle the layout; the board fits itself.
        for _ in 0..3 {
            window.frame(Vec::new());
        }
        window
    }

    /// One frame with these input events: the UI, then tessellation. Returns the number of
    /// vertices drawn.
    fn frame(&mut self, events: Vec<Event>) -> usize {
        let (shapes, pixels_per_point) = self.run_ui(events);
        vertices(&self.ctx.tessellate(shapes, pixels_per_point))
    }

    /// The UI part of a frame: the shapes to paint.
    fn run_ui(&mut self, events: Vec<Event>) -> (Vec<egui::epaint::ClippedShape>, f32) {
        if self.moving {
            self.keep_moving();
        }
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, vec2(SCREEN[0], SCREEN[1]))),
            events,
            ..Default::default()
        };
        let app = &mut self.app;
        let egui::FullOutput { mut textures_delta, shapes, pixels_per_point, .. } =
            self.ctx.run_ui(input, |ui| app.ui(ui));
        // The font texture would go to the GPU here.
        textures_delta.clear();
        (shapes, pixels_per_point)
    }

    /// Prints the frame's size and how its time splits between the UI and tessellation (the
    /// mean of 200 frames each), before the view is benchmarked.
    fn describe(&mut self, name: &str) {
        const FRAMES: u32 = 200;
        let (mut ui, mut tessellate) = (Duration::ZERO, Duration::ZERO);
        let mut counts = (0, 0);
        for _ in 0..FRAMES {
            let start = Instant::now();
            let (shapes, pixels_per_point) = self.run_ui(Vec::new());
            let middle = Instant::now();
            counts.0 = shapes.len();
            counts.1 = vertices(&self.ctx.tessellate(shapes, pixels_per_point));
            tessellate += middle.elapsed();
            ui += middle - start;
        }
        println!(
            "{name}: {} shapes, {} vertices a frame; UI {:.0} µs + tessellation {:.0} µs",
            counts.0,
            counts.1,
            ui.as_secs_f64() * 1e6 / f64::from(FRAMES),
            tessellate.as_secs_f64() * 1e6 / f64::from(FRAMES),
        );
    }

    /// Puts the pointer over the board (it stays there in later frames) and waits, a second of
    /// frames at 60 a second, for the tooltip to show.
    fn hover_board(&mut self) {
        self.frame(vec![Event::PointerMoved(OVER_BOARD)]);
        for _ in 0..60 {
            self.frame(Vec::new());
        }
    }

    /// Keeps motion playing: the first seat's piece rolls, travels six steps and hits the
    /// second seat's for 12, again as soon as the last one has been shown.
    fn keep_moving(&mut self) {
        let now = self.ctx.input(|i| i.time);
        let game = self.app.game_mut().expect("in a game");
        if game.motion.is_busy(now) {
            return;
        }
        let session = &mut game.session;
        let state = &session.state;
        let mover = state.seat_piece(0).expect("the first seat's piece");
        let target = state.seat_piece(1).expect("the second seat's piece");
        let from = state.pieces[mover as usize].space;
        let to = state.board.space_ids().find(|&s| state.board.distance(from, s) == Some(6)).expect("six steps away");
        let events = vec![
            GameEvent::Rolled { roll: Some("move".into()), sides: 6, faces: vec![6], value: 6 },
            GameEvent::PieceMoved { piece: mover, from: Some(from), to: Some(to) },
            GameEvent::StatChanged { piece: target, stat: 0, from: 100, to: 88, owner: Some(1) },
        ];
        session.last_rolls = vec![RollShown { name: Some("move".into()), sides: 6, faces: vec![6], value: 6, seat: 0 }];
        let count = session.event_count();
        let (rules, state) = (session.rules.clone(), session.state.clone());
        game.motion.follow(&rules, &state, &events, count, &[], None, now, 1.0);
    }

    /// Takes the pointer off the window.
    fn leave(&mut self) {
        self.frame(vec![Event::PointerGone]);
        self.frame(Vec::new());
    }

    /// Zooms out with the pointer over the board (as a pinch or ctrl+wheel does) until the whole
    /// board is in view, centred, then takes the pointer away.
    fn zoom_out_to_whole_board(&mut self) {
        let game = self.app.game_mut().expect("in a game");
        let bounds = game.board.geometry(&game.session.state.board).bounds();
        game.board.center_on(bounds.center());
        // The view starts at 18 pixels a unit; the 26 x 100 zig-zag grid is about 88 units
        // high and its view about 730 pixels, so it fits below about 8.3.
        self.frame(vec![Event::PointerMoved(OVER_BOARD), Event::Zoom(0.4)]);
        self.leave();
    }
}

/// The number of vertices of tessellated shapes.
fn vertices(primitives: &[egui::ClippedPrimitive]) -> usize {
    primitives
        .iter()
        .map(|p| match &p.primitive {
            egui::epaint::Primitive::Mesh(mesh) => mesh.vertices.len(),
            egui::epaint::Primitive::Callback(_) => 0,
        })
        .sum()
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("player_frame");
    group.sample_size(30).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));

    let mut dunes = Window::new("dunes_of_terror");
    dunes.leave();
    dunes.describe("dunes_default");
    group.bench_function("dunes_default", |b| b.iter(|| black_box(dunes.frame(Vec::new()))));

    dunes.hover_board();
    dunes.describe("dunes_default_hover");
    group.bench_function("dunes_default_hover", |b| b.iter(|| black_box(dunes.frame(Vec::new()))));

    dunes.moving = true;
    dunes.describe("dunes_in_motion");
    group.bench_function("dunes_in_motion", |b| b.iter(|| black_box(dunes.frame(Vec::new()))));
    dunes.moving = false;

    dunes.zoom_out_to_whole_board();
    dunes.describe("dunes_whole_board");
    group.bench_function("dunes_whole_board", |b| b.iter(|| black_box(dunes.frame(Vec::new()))));

    let mut dice_wars = Window::new("dice_wars");
    dice_wars.leave();
    dice_wars.describe("dice_wars_default");
    group.bench_function("dice_wars_default", |b| b.iter(|| black_box(dice_wars.frame(Vec::new()))));

    group.finish();
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    benches(&mut criterion);
    criterion.final_summary();
}
