//! The editor's window: the mod's definitions to browse and search, a form for the one chosen
//! (built from the engine's types), a table comparing a collection's entries side by side, the
//! hooks, and the balance panel; Save, Undo, Redo and Play-test above. Draws a `ModModel`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui::{Color32, RichText};
use meeple_engine::rules::Ruleset;
use serde_json::Value as Json;
use toml_edit::Value;

use super::balance::BalancePanel;
use super::model::{MANIFEST, ModModel, Node, Seg, is_collection, path_text};
use super::painter::{self, MapPainter};
use super::schema::{FieldInfo, FieldKind, data_schema, field_at, manifest_schema};

/// What the editor shows in its main area.
#[derive(Clone, Debug, PartialEq)]
pub enum View {
    /// The form of one definition or table (`items.bow`, `board`).
    Entry(Vec<Seg>),
    /// A collection's entries side by side.
    Table(String),
    Hooks,
    Balance,
    /// The map painter on a grid board drawn from a layout (`board`, `boards.<id>`).
    Map(Vec<Seg>),
}

/// What the person asked for that the app must do.
#[derive(Clone, Debug)]
pub enum EditorChoice {
    Close,
    /// Play the mod as edited.
    PlayTest(Arc<Ruleset>),
}

/// Where a bundled mod's changes go; asked before the first change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// The folder opened is the user's own: changes are saved there.
    Own,
    /// A bundled mod not yet decided.
    Undecided,
    /// A bundled mod edited where it is.
    InPlace,
}

/// The editor open on one mod.
pub struct EditorScreen {
    pub model: ModModel,
    pub view: View,
    pub search: String,
    pub placement: Placement,
    /// Text being typed into fields, by path, until it is valid and committed.
    drafts: BTreeMap<String, String>,
    /// Problems of text being typed, by path.
    draft_problems: BTreeMap<String, String>,
    /// The outcome of the last action (saved, refused, …).
    pub status: Option<(bool, String)>,
    schema: Json,
    manifest_schema: Json,
    pub balance: BalancePanel,
    /// "Close editor" was clicked with unsaved changes: the question is shown.
    pub asking_to_close: bool,
    /// The width of the form area, for wrapping long problems (the form scrolls sideways, so
    /// its own width is unbounded).
    form_width: f32,
    /// The map painter, kept while its board's map is shown (its tool and brush with it).
    pub painter: Option<MapPainter>,
}

impl EditorScreen {
    /// Opens the mod in `folder`; `bundled` mods ask where changes go before the first one.
    pub fn open(folder: &Path, bundled: bool) -> Result<Self, String> {
        let model = ModModel::open(folder)?;
        // The board first: `[board]`, or the first of `[boards]` in a mod of a map per seat count.
        let board = vec![Seg::Key("board".into())];
        let first_of_boards = || {
            let boards = vec![Seg::Key("boards".into())];
            model.children(&boards).into_iter().next().map(|(seg, _)| [boards.clone(), vec![seg]].concat())
        };
        let view = View::Entry(if model.get(&board).is_some() { board } else { first_of_boards().unwrap_or(board) });
        Ok(Self {
            balance: BalancePanel::default(),
            status: model.interrupted_save.clone(),
            model,
            view,
            search: String::new(),
            placement: if bundled { Placement::Undecided } else { Placement::Own },
            drafts: BTreeMap::new(),
            draft_problems: BTreeMap::new(),
            schema: data_schema(),
            manifest_schema: manifest_schema(),
            asking_to_close: false,
            form_width: 600.0,
            painter: None,
        })
    }

    /// Copies a bundled mod to the user's mod folder and edits the copy (an existing copy is
    /// opened as it is).
    pub fn edit_a_copy(&mut self, user_mods: &Path) -> Result<PathBuf, String> {
        let id = self.model.folder.file_name().ok_or("the mod folder has no name")?.to_owned();
        let target = user_mods.join(&id);
        let existed = target.join("mod.toml").is_file();
        if !existed {
            copy_folder(&self.model.folder, &target)
                .map_err(|e| format!("cannot copy to {}: {e}", target.display()))?;
        }
        self.model = ModModel::open(&target)?;
        self.placement = Placement::Own;
        self.status = Some((
            true,
            if existed {
                format!("Editing your existing copy in {}", target.display())
            } else {
                format!("Copied to {}; changes are saved there", target.display())
            },
        ));
        Ok(target)
    }

    /// Whether changes may be made (a bundled mod waits for the choice of where they go).
    pub fn editable(&self) -> bool {
        self.placement != Placement::Undecided
    }

    /// Sets a value through the form, showing the outcome.
    pub fn set(&mut self, path: &[Seg], value: Value) -> bool {
        match self.model.set(path, value) {
            Ok(()) => {
                self.status = None;
                true
            }
            Err(refusal) => {
                self.status = Some((false, refusal.to_string()));
                false
            }
        }
    }

    /// Sets a number from its widget; the steps of one drag are one undo step.
    fn set_number(&mut self, path: &[Seg], value: Value, dragging: bool) {
        let result = if dragging { self.model.set_merging(path, value) } else { self.model.set(path, value) };
        self.status = result.err().map(|refusal| (false, refusal.to_string()));
    }

    /// The bounds the mod declares for a number at `path`: an item's number by `[item_stats]`,
    /// a piece kind's starting stat by its `[stats]` declaration.
    fn declared_bounds(&self, path: &[Seg]) -> (Option<f64>, Option<f64>) {
        let declaration = match path {
            [Seg::Key(items), _, Seg::Key(stats), Seg::Key(name)] if items == "items" && stats == "stats" => {
                vec![Seg::Key("item_stats".into()), Seg::Key(name.clone())]
            }
            [Seg::Key(pieces), _, Seg::Key(stats), Seg::Key(name)] if pieces == "pieces" && stats == "stats" => {
                vec![Seg::Key("stats".into()), Seg::Key(name.clone())]
            }
            _ => return (None, None),
        };
        let Some(Json::Object(bounds)) = self.model.json(&declaration) else { return (None, None) };
        (bounds.get("min").and_then(Json::as_f64), bounds.get("max").and_then(Json::as_f64))
    }

    /// Closes the editor, or asks first when there are unsaved changes.
    fn close(&mut self) -> Option<EditorChoice> {
        if self.model.is_dirty() {
            self.asking_to_close = true;
            None
        } else {
            Some(EditorChoice::Close)
        }
    }

    /// The question before unsaved changes are dropped.
    fn close_question_ui(&mut self, ui: &mut egui::Ui) -> Option<EditorChoice> {
        if !self.asking_to_close {
            return None;
        }
        let changed: Vec<String> = self.model.files.iter().filter(|f| f.is_changed()).map(|f| f.name.clone()).collect();
        let mut choice = None;
        egui::Modal::new(egui::Id::unique("editor close question")).show(ui.ctx(), |ui| {
            ui.set_max_width(420.0);
            ui.heading("Close the editor?");
            ui.label(format!("Unsaved changes to {} will be lost.", changed.join(", ")));
            ui.horizontal(|ui| {
                if self.editable() && ui.button("Save and close").clicked() {
                    self.save();
                    if !self.model.is_dirty() {
                        choice = Some(EditorChoice::Close);
                    }
                    self.asking_to_close = false;
                }
                if ui.button("Discard changes").clicked() {
                    self.asking_to_close = false;
                    choice = Some(EditorChoice::Close);
                }
                if ui.button("Keep editing").clicked() {
                    self.asking_to_close = false;
                }
            });
        });
        choice
    }

    pub fn save(&mut self) {
        self.status = Some(match self.model.save() {
            Ok(written) if written.is_empty() => (true, "Nothing to save".into()),
            Ok(written) => (true, format!("Saved {}", written.join(", "))),
            Err(refusal) => (false, refusal.to_string()),
        });
    }

    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<EditorChoice> {
        let mut choice = self.close_question_ui(ui);
        egui::Panel::top("editor bar").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                if ui.button("Close editor").clicked() {
                    choice = self.close();
                }
                ui.separator();
                let name = self.model.rules.as_ref().map(|r| r.manifest.name.clone()).unwrap_or_default();
                ui.label(RichText::new(format!("Editing {name}")).strong());
                ui.label(RichText::new(self.model.folder.display().to_string()).small().weak());
                ui.separator();
                let dirty = self.model.is_dirty();
                if ui.add_enabled(dirty && self.editable(), egui::Button::new("Save")).clicked() {
                    self.save();
                }
                // The status of the change taken back (or made again) would be stale.
                if ui.add_enabled(self.model.can_undo(), egui::Button::new("Undo")).clicked() {
                    self.model.undo();
                    self.status = None;
                }
                if ui.add_enabled(self.model.can_redo(), egui::Button::new("Redo")).clicked() {
                    self.model.redo();
                    self.status = None;
                }
                if let Ok(rules) = &self.model.rules
                    && ui
                        .button("Play-test")
                        .on_hover_text("Play the mod as edited (unsaved changes included)")
                        .clicked()
                {
                    choice = Some(EditorChoice::PlayTest(rules.clone()));
                }
                if dirty {
                    ui.label(RichText::new("unsaved changes").color(Color32::from_rgb(0xf0, 0xc0, 0x40)));
                }
            });
            if self.placement == Placement::Undecided {
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new("This is a bundled mod. Where should changes go?").strong());
                    if let Some(user_mods) = crate::player::catalog::user_mods_dir() {
                        let text = format!("Edit a copy in {}", user_mods.display());
                        if ui.button(text).clicked()
                            && let Err(error) = self.edit_a_copy(&user_mods)
                        {
                            self.status = Some((false, error));
                        }
                    }
                    if ui.button("Edit the bundled files in place").clicked() {
                        self.placement = Placement::InPlace;
                        self.status = Some((true, format!("Changes are saved to {}", self.model.folder.display())));
                    }
                });
            }
            if let Some((ok, text)) = &self.status {
                let color = if *ok { Color32::from_rgb(0x90, 0xd0, 0x90) } else { Color32::LIGHT_RED };
                ui.add(egui::Label::new(RichText::new(text).color(color).monospace()).wrap());
            }
        });
        egui::Panel::left("editor browse").default_size(240.0).resizable(true).show(ui, |ui| {
            self.browse_ui(ui);
        });
        egui::CentralPanel::default().show(ui, |ui| {
            if let View::Map(board) = self.view.clone() {
                // The map fills the area: it is not in the scrolled form.
                self.map_ui(ui, &board);
                return;
            }
            self.form_width = ui.available_width();
            egui::ScrollArea::both().id_salt("editor main").show(ui, |ui| match self.view.clone() {
                View::Entry(path) => self.entry_ui(ui, &path),
                View::Table(collection) => self.table_ui(ui, &collection),
                View::Hooks => self.hooks_ui(ui),
                View::Map(_) => {}
                View::Balance => {
                    if let Some(before) = self.model.saved_rules.clone() {
                        let after = self.model.rules.as_ref().ok().filter(|_| self.model.is_dirty()).cloned();
                        let overlay = self.model.overlay();
                        self.balance.ui(ui, &before, after.as_ref(), &overlay);
                    } else {
                        ui.label("The mod as saved does not load: fix it first.");
                    }
                }
            });
        });
        choice
    }

    /// The map painter on the board at `board`; a stroke's outcome goes to the status line.
    fn map_ui(&mut self, ui: &mut egui::Ui, board: &[Seg]) {
        if self.painter.as_ref().is_none_or(|p| p.board != board) {
            self.painter = Some(MapPainter::new(board.to_vec()));
        }
        if ui.link("Back to the board's form").clicked() {
            self.view = View::Entry(board.to_vec());
        }
        let editable = self.editable();
        let painter = self.painter.as_mut().expect("made above");
        if let Some(outcome) = painter.ui(ui, &mut self.model, editable) {
            self.status = Some(outcome);
        }
    }

    /// The list of definitions, with a search box.
    fn browse_ui(&mut self, ui: &mut egui::Ui) {
        let label = ui.label("Search");
        ui.add(egui::TextEdit::singleline(&mut self.search).hint_text("id, label or value")).labelled_by(label.id);
        ui.separator();
        if ui.selectable_label(self.view == View::Balance, "Balance").clicked() {
            self.view = View::Balance;
        }
        if ui.selectable_label(self.view == View::Hooks, "Lua hooks").clicked() {
            self.view = View::Hooks;
        }
        ui.separator();
        let query = self.search.trim().to_lowercase();
        egui::ScrollArea::vertical().id_salt("browse").show(ui, |ui| {
            for (section, entries) in self.model.sections() {
                if is_collection(&section) {
                    let shown: Vec<&String> =
                        entries.iter().filter(|id| query.is_empty() || self.matches(&section, id, &query)).collect();
                    if shown.is_empty() && !query.is_empty() {
                        continue;
                    }
                    egui::CollapsingHeader::new(section_title(&section))
                        .id_salt(("section", &section))
                        .default_open(!query.is_empty() || entries.len() <= 12)
                        .show(ui, |ui| {
                            if ui.selectable_label(self.view == View::Table(section.clone()), "Compare all").clicked() {
                                self.view = View::Table(section.clone());
                            }
                            for id in shown {
                                let path = vec![Seg::Key(section.clone()), Seg::Key(id.clone())];
                                let label = self.entry_label(&path).unwrap_or_else(|| id.clone());
                                if ui.selectable_label(self.view == View::Entry(path.clone()), label).clicked() {
                                    self.view = View::Entry(path);
                                }
                            }
                        });
                } else if query.is_empty() || section.contains(&query) {
                    let path = vec![Seg::Key(section.clone())];
                    if ui.selectable_label(self.view == View::Entry(path.clone()), section_title(&section)).clicked() {
                        self.view = View::Entry(path);
                    }
                }
            }
        });
    }

    /// Whether a definition matches a search: its id, label or any value.
    fn matches(&self, section: &str, id: &str, query: &str) -> bool {
        if id.to_lowercase().contains(query) {
            return true;
        }
        let path = vec![Seg::Key(section.to_string()), Seg::Key(id.to_string())];
        self.model.value_text(&path).is_some_and(|text| text.to_lowercase().contains(query))
    }

    /// The `label` of a definition, with its id.
    fn entry_label(&self, path: &[Seg]) -> Option<String> {
        let mut label_path = path.to_vec();
        label_path.push(Seg::Key("label".into()));
        let (_, item) = self.model.get(&label_path)?;
        let label = item.as_str()?;
        let id = path_text(&path[path.len() - 1..]);
        Some(if label.to_lowercase().replace(' ', "_") == id.to_lowercase() {
            label.to_string()
        } else {
            format!("{label} ({id})")
        })
    }

    /// The form of one definition or table.
    fn entry_ui(&mut self, ui: &mut egui::Ui, path: &[Seg]) {
        let Some((file, _)) = self.model.get(path) else {
            ui.label(format!("`{}` is not in the mod", path_text(path)));
            return;
        };
        ui.heading(path_text(path));
        ui.label(RichText::new(format!("in {}", self.model.files[file].name)).small().weak());
        if painter::can_paint(&self.model, path)
            && ui
                .button("Paint the map")
                .on_hover_text("Paint the layout's cells, homes and special spaces, and draw walls")
                .clicked()
        {
            self.view = View::Map(path.to_vec());
        }
        if let Some(info) = self.field(path)
            && let Some(description) = &info.description
        {
            ui.label(RichText::new(description).small());
        }
        ui.separator();
        ui.add_enabled_ui(self.editable(), |ui| {
            egui::Grid::new(("form", path_text(path))).num_columns(2).striped(true).show(ui, |ui| {
                self.fields_ui(ui, path, 0);
            });
        });
        self.inherited_ui(ui, path);
        if self.editable() {
            self.add_field_ui(ui, path);
        }
    }

    /// Adds one of the fields the types allow and the table does not have yet, with a neutral
    /// value (refused, with the reason, when the mod does not accept it).
    fn add_field_ui(&mut self, ui: &mut egui::Ui, path: &[Seg]) {
        let Some(info) = self.field(path) else { return };
        let present: Vec<Seg> = self.model.children(path).into_iter().map(|(seg, _)| seg).collect();
        let missing: Vec<String> =
            info.fields.iter().filter(|f| !present.contains(&Seg::Key((*f).clone()))).cloned().collect();
        if missing.is_empty() {
            return;
        }
        let mut chosen: Option<String> = None;
        ui.separator();
        ui.horizontal(|ui| {
            let label = ui.label("Add a field");
            egui::ComboBox::from_id_salt(("add field", path_text(path)))
                .selected_text("choose")
                .show_ui(ui, |ui| {
                    for field in &missing {
                        if ui.selectable_label(false, field).clicked() {
                            chosen = Some(field.clone());
                        }
                    }
                })
                .response
                .labelled_by(label.id);
        });
        if let Some(field) = chosen {
            let mut child = path.to_vec();
            child.push(Seg::Key(field));
            let info = self.field(&child);
            let value = match info.as_ref().map(|i| &i.kind) {
                Some(FieldKind::Integer) => {
                    Value::from(info.as_ref().and_then(|i| i.min).unwrap_or(0.0).max(0.0) as i64)
                }
                Some(FieldKind::Number) => Value::from(0.0),
                Some(FieldKind::Bool) => Value::from(false),
                Some(FieldKind::Table) => Value::InlineTable(toml_edit::InlineTable::new()),
                Some(FieldKind::List) => Value::Array(toml_edit::Array::new()),
                _ => Value::from(info.and_then(|i| i.choices.first().cloned()).unwrap_or_default()),
            };
            self.set(&child, value);
        }
    }

    /// One row per field of the table at `path`; nested tables and lists indented below.
    fn fields_ui(&mut self, ui: &mut egui::Ui, path: &[Seg], depth: usize) {
        for (seg, node) in self.model.children(path) {
            let mut child = path.to_vec();
            child.push(seg.clone());
            let name = format!("{}{}", "    ".repeat(depth), path_text(&[seg]));
            let info = self.field(&child);
            let label = ui.label(&name);
            let label = match info.as_ref().and_then(|i| i.description.clone()) {
                Some(description) => label.on_hover_text(description),
                None => label,
            };
            match node {
                Node::Value(value) => {
                    self.value_ui(ui, &child, &value, info.as_ref(), label.id);
                    ui.end_row();
                }
                Node::Table | Node::List(_) => {
                    ui.label(RichText::new(if matches!(node, Node::Table) { "table" } else { "list" }).weak());
                    ui.end_row();
                    if depth < 4 {
                        self.fields_ui(ui, &child, depth + 1);
                    }
                }
            }
        }
    }

    /// The widget for one value: numbers with their ranges, switches, choices, text checked as
    /// it is typed.
    fn value_ui(&mut self, ui: &mut egui::Ui, path: &[Seg], value: &Value, info: Option<&FieldInfo>, label: egui::Id) {
        let key = path_text(path);
        let kind = info.map(|i| i.kind.clone()).unwrap_or(FieldKind::Any);
        match value {
            Value::Integer(n) if kind != FieldKind::Number => {
                let mut number = *n.value();
                let (declared_min, declared_max) = self.declared_bounds(path);
                let min = [info.and_then(|i| i.min), declared_min].into_iter().flatten().reduce(f64::max);
                let max = [info.and_then(|i| i.max), declared_max].into_iter().flatten().reduce(f64::min);
                let drag = egui::DragValue::new(&mut number)
                    .range(min.map_or(i64::MIN, |m| m as i64)..=max.map_or(i64::MAX, |m| m as i64));
                let response = ui.add(drag).labelled_by(label);
                if response.drag_started() || response.gained_focus() {
                    self.model.end_edit();
                }
                if response.changed() && number != *n.value() {
                    self.set_number(path, Value::from(number), response.dragged());
                }
            }
            Value::Integer(_) | Value::Float(_) => {
                let mut number = value.as_float().or_else(|| value.as_integer().map(|i| i as f64)).unwrap_or(0.0);
                let before = number;
                let mut drag = egui::DragValue::new(&mut number).speed(0.01);
                if let Some(info) = info {
                    drag = drag.range(info.min.unwrap_or(f64::MIN)..=info.max.unwrap_or(f64::MAX));
                }
                let response = ui.add(drag).labelled_by(label);
                if response.changed() && number != before {
                    self.set_number(path, Value::from(number), response.dragged());
                }
            }
            Value::Boolean(b) => {
                let mut on = *b.value();
                if ui.checkbox(&mut on, "").labelled_by(label).changed() {
                    self.set(path, Value::from(on));
                }
            }
            Value::String(text) if info.is_some_and(|i| !i.choices.is_empty() || i.reference.is_some()) => {
                let info = info.expect("checked");
                let current = text.value().clone();
                let mut chosen = current.clone();
                // Enumerations offer their values; references the ids of their collection.
                let options: Vec<String> = match &info.reference {
                    Some(collection) => self
                        .model
                        .sections()
                        .into_iter()
                        .find(|(k, _)| k == collection)
                        .map(|(_, ids)| ids)
                        .unwrap_or_default(),
                    None => info.choices.clone(),
                };
                egui::ComboBox::from_id_salt(("choice", &key))
                    .selected_text(&chosen)
                    .show_ui(ui, |ui| {
                        for option in &options {
                            ui.selectable_value(&mut chosen, option.clone(), option);
                        }
                    })
                    .response
                    .labelled_by(label);
                if chosen != current {
                    self.set(path, Value::from(chosen));
                }
            }
            Value::String(text) => {
                let draft = self.drafts.entry(key.clone()).or_insert_with(|| text.value().clone());
                let rules_language = info.is_some_and(|i| i.rules_language);
                let edit = if rules_language || draft.len() > 40 {
                    egui::TextEdit::multiline(draft).desired_rows(1).desired_width(f32::INFINITY).code_editor()
                } else {
                    egui::TextEdit::singleline(draft).desired_width(260.0)
                };
                let response = ui.add(edit).labelled_by(label);
                let typed = draft.clone();
                if response.gained_focus() || response.lost_focus() {
                    // One edit of a field, from focus to leaving it, is one undo step.
                    self.model.end_edit();
                }
                if response.changed() {
                    // Checked as it is typed; taken when it is valid, as part of this edit.
                    match self.model.check(path, Value::from(typed.clone())) {
                        Ok(()) => {
                            self.draft_problems.remove(&key);
                            match self.model.set_merging(path, Value::from(typed)) {
                                Ok(()) => self.status = None,
                                Err(refusal) => self.status = Some((false, refusal.to_string())),
                            }
                        }
                        Err(refusal) => {
                            self.draft_problems
                                .insert(key.clone(), refusal.problems.first().cloned().unwrap_or(refusal.message));
                        }
                    }
                } else if !response.has_focus() && typed != *text.value() && !self.draft_problems.contains_key(&key) {
                    // The value changed elsewhere (undo, redo): show it.
                    self.drafts.insert(key.clone(), text.value().clone());
                }
                if let Some(problem) = self.draft_problems.get(&key) {
                    ui.end_row();
                    ui.label("");
                    // Wrapped within the form's width: a located problem echoes its source line.
                    let width = (self.form_width - 160.0).max(240.0);
                    ui.scope(|ui| {
                        ui.set_max_width(width);
                        ui.add(
                            egui::Label::new(RichText::new(problem).small().monospace().color(Color32::LIGHT_RED))
                                .wrap(),
                        );
                    });
                }
            }
            other => {
                ui.label(RichText::new(other.to_string().trim()).monospace());
            }
        }
    }

    /// The fields a definition takes from its templates (`inherits`), shown as such.
    fn inherited_ui(&mut self, ui: &mut egui::Ui, path: &[Seg]) {
        let mut inherits_path = path.to_vec();
        inherits_path.push(Seg::Key("inherits".into()));
        let Some(json) = self.model.json(&inherits_path) else { return };
        let templates: Vec<String> = match json {
            Json::String(one) => vec![one],
            Json::Array(many) => many.iter().filter_map(|v| v.as_str().map(String::from)).collect(),
            _ => Vec::new(),
        };
        let own: Vec<Seg> = self.model.children(path).into_iter().map(|(seg, _)| seg).collect();
        ui.separator();
        for template in templates {
            let mut template_path = path[..path.len() - 1].to_vec();
            template_path.push(Seg::Key(template.clone()));
            for (seg, node) in self.model.children(&template_path) {
                if own.contains(&seg) || seg == Seg::Key("abstract".into()) {
                    continue;
                }
                let shown = match node {
                    Node::Value(value) => value.to_string().trim().to_string(),
                    _ => "…".into(),
                };
                ui.label(
                    RichText::new(format!("{} = {shown}   (inherited from {template})", path_text(&[seg])))
                        .italics()
                        .weak(),
                );
            }
        }
    }

    /// A collection's entries side by side: one row per entry, one column per field (nested
    /// tables' fields as `stats.range`); inherited values in italics.
    fn table_ui(&mut self, ui: &mut egui::Ui, collection: &str) {
        ui.heading(format!("All {}", section_title(collection).to_lowercase()));
        let ids: Vec<String> =
            self.model.sections().into_iter().find(|(k, _)| k == collection).map(|(_, ids)| ids).unwrap_or_default();
        let mut columns: Vec<Vec<Seg>> = Vec::new();
        for id in &ids {
            let entry = vec![Seg::Key(collection.into()), Seg::Key(id.clone())];
            for (seg, node) in self.model.children(&entry) {
                let names: Vec<Vec<Seg>> = match node {
                    Node::Table => {
                        let mut inner = entry.clone();
                        inner.push(seg.clone());
                        self.model
                            .children(&inner)
                            .into_iter()
                            .filter(|(_, n)| matches!(n, Node::Value(_)))
                            .map(|(s, _)| vec![seg.clone(), s])
                            .collect()
                    }
                    Node::Value(_) => vec![vec![seg.clone()]],
                    Node::List(_) => Vec::new(),
                };
                for name in names {
                    if !columns.contains(&name)
                        && !matches!(name.last(), Some(Seg::Key(k)) if k == "description" || k == "abstract")
                    {
                        columns.push(name);
                    }
                }
            }
        }
        egui::Grid::new(("compare", collection)).striped(true).show(ui, |ui| {
            ui.strong("id");
            for column in &columns {
                ui.strong(path_text(column));
            }
            ui.end_row();
            for id in &ids {
                let entry = vec![Seg::Key(collection.into()), Seg::Key(id.clone())];
                if ui.link(id).clicked() {
                    self.view = View::Entry(entry.clone());
                }
                for column in &columns {
                    let mut cell = entry.clone();
                    cell.extend(column.iter().cloned());
                    match self.model.display_text(&cell) {
                        Some(text) => ui.label(text),
                        None => match self.inherited_value(collection, id, column) {
                            Some(text) => ui.label(RichText::new(text).italics().weak()),
                            None => ui.label(""),
                        },
                    };
                }
                ui.end_row();
            }
        });
    }

    /// A value an entry inherits from its template.
    fn inherited_value(&self, collection: &str, id: &str, column: &[Seg]) -> Option<String> {
        let inherits =
            self.model.json(&[Seg::Key(collection.into()), Seg::Key(id.into()), Seg::Key("inherits".into())])?;
        let templates: Vec<String> = match inherits {
            Json::String(one) => vec![one],
            Json::Array(many) => many.iter().filter_map(|v| v.as_str().map(String::from)).collect(),
            _ => return None,
        };
        templates.iter().rev().find_map(|template| {
            let mut path = vec![Seg::Key(collection.into()), Seg::Key(template.clone())];
            path.extend(column.iter().cloned());
            self.model.display_text(&path)
        })
    }

    /// The Lua hook files, the functions each defines, and their load errors.
    fn hooks_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Lua hooks");
        let files = meeple_engine::loader::mod_files(&self.model.folder).map(|f| f.hooks).unwrap_or_default();
        if files.is_empty() {
            ui.label("This mod has no hooks: its rules are all data.");
        }
        let problems: Vec<String> = match &self.model.rules {
            Err(problems) => problems.iter().map(ToString::to_string).filter(|p| p.contains(".lua")).collect(),
            Ok(_) => Vec::new(),
        };
        let defined = match &self.model.rules {
            Ok(rules) => meeple_engine::lua::HookRuntime::load_all(rules.clone())
                .map(|r| r.defined_functions())
                .unwrap_or_default(),
            Err(_) => Vec::new(),
        };
        for file in &files {
            let name = file.strip_prefix(&self.model.folder).unwrap_or(file).display().to_string();
            ui.label(RichText::new(&name).strong().monospace());
            // Read as the loader reads a hook: a link or a pipe is not read (nor waited on).
            let text =
                meeple_engine::loader::read(file).ok().and_then(|b| String::from_utf8(b).ok()).unwrap_or_default();
            let here: Vec<&String> = defined.iter().filter(|f| text.contains(&format!("function {f}("))).collect();
            if here.is_empty() {
                ui.label(RichText::new("no global functions").weak());
            }
            for function in here {
                ui.label(format!("  {function}"));
            }
        }
        for problem in problems {
            ui.colored_label(Color32::LIGHT_RED, RichText::new(problem).monospace());
        }
    }

    /// What the schema says about the field at `path` (paths into `mod.toml` by the manifest's
    /// schema).
    fn field(&self, path: &[Seg]) -> Option<FieldInfo> {
        if path.first() == Some(&Seg::Key(MANIFEST.into())) {
            let prefix = path[..1].to_vec();
            return field_at(&self.manifest_schema, &path[1..], &|inner| {
                let mut full = prefix.clone();
                full.extend(inner.iter().cloned());
                self.model.json(&full)
            });
        }
        field_at(&self.schema, path, &|prefix| self.model.json(prefix))
    }
}

/// A section's title: `space_counters` → "Space counters"; `mod` → "mod.toml".
fn section_title(key: &str) -> String {
    if key == MANIFEST {
        return "mod.toml".into();
    }
    let text = key.replace('_', " ");
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().collect::<String>() + chars.as_str(),
        None => text,
    }
}

/// Copies a folder and the ordinary files and folders in it. Links, devices and pipes are left
/// out, as the loader would refuse them: copying a link would copy whatever it leads to, and
/// reading a pipe waits for ever.
fn copy_folder(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        let kind = entry.file_type()?;
        if kind.is_dir() {
            copy_folder(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}
