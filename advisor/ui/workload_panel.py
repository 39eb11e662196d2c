"""The workload panel: the model and every setting of the job, one control per declared setting.

The controls are made from the settings' declarations (``advisor.core.job.settings``) and named after
the field they edit (``spin_batch`` ↔ ``workload.batch``), so the binding is a loop, not a table. What
applies, what a switch puts back and which weights an engine or a method takes are the core's rules
(``advisor.core.estimation.job_rules``): the panel greys, hides or lists by them, and says why. An edit
builds a new validated Job and hands it to the session; a rejected value is explained under the
controls.
"""

from __future__ import annotations

from pydantic import ValidationError
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from advisor.core import (
    DEFAULT_WEIGHTS,
    SETTINGS,
    Engine,
    Job,
    Method,
    Mode,
    Precision,
    Section,
    Widget,
    default_of,
    engine_caches,
    engine_loads,
    fit_to_engine,
    reason_words,
    settled,
    weights_choices,
    weights_key,
    why_not,
)
from advisor.ui import words
from advisor.ui.model_box import ModelBox
from advisor.ui.setting_controls import ChoiceControl, Control, make_control

#: The group boxes, and the declared sections each holds.
BOXES = (("box_task", "Task", (Section.TASK,)), ("box_inference", "Inference", (Section.INFERENCE,)),
         ("box_training", "Fine-tuning", (Section.TRAINING, Section.TRAINING_RUN, Section.FRAMEWORK)))


class WorkloadPanel(QScrollArea):
    """Edits the session's model and workload.

    Signals:
      open_model_requested()   the user asked to open a model file (handled here too)
    """

    open_model_requested = Signal()
    # Set from ``BOXES`` in ``__init__`` (the sections' group boxes, by name).
    box_task: QGroupBox
    box_inference: QGroupBox
    box_training: QGroupBox

    def __init__(self, session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        body = QWidget()
        self.setWidget(body)
        lay = QVBoxLayout(body)
        self.box_model = ModelBox(session)
        lay.addWidget(self.box_model)
        self.combo_model = self.box_model.combo_model  # the tests and the binding read it here
        self.controls: dict[str, Control] = {}
        self.labels: dict[str, QLabel] = {}
        self.forms: dict[Section, QFormLayout] = {}
        for attr, title, sections in BOXES:
            box = self._box(title, sections)
            setattr(self, attr, box)
            lay.addWidget(box)
        self.form_inference = self.forms[Section.INFERENCE]
        lay.addWidget(self._plan_box())
        self.label_note = _label("label_note", "color: palette(mid)")  # what the panel changed itself (grey)
        self.label_problems = _label("label_problems", "color: #C00000")
        lay.addWidget(self.label_note)
        lay.addWidget(self.label_problems)
        lay.addStretch(1)
        # Weights kept per kind (inference's, each method's base): switching mode or method shows that kind's
        # last choice, never another kind's. Concurrent sequences and a micro-batch are different numbers:
        # each mode keeps its own; a first switch to training starts at the field's default micro-batch.
        self._weights_kept: dict = dict(DEFAULT_WEIGHTS)
        self._batch_kept: dict[Mode, int] = {}
        for c in self.controls.values():
            c.on_edit(self._on_control_edited)
        session.workload_changed.connect(self._on_workload_changed)
        session.results_computed.connect(self._on_results_computed)
        self._on_workload_changed(session.workload)

    # --- building -------------------------------------------------------------------
    def _box(self, title: str, sections: tuple[Section, ...]) -> QGroupBox:
        box = QGroupBox(title)
        form = QFormLayout(box)
        for s in SETTINGS:
            if s.section not in sections or s.widget is Widget.PLAN:
                continue
            c = make_control(s)
            self.controls[s.name] = c
            setattr(self, c.widget.objectName(), c.widget)  # panel.spin_batch, panel.combo_engine …
            if s.widget is Widget.SWITCH:
                form.addRow(c.widget)
            else:
                label = QLabel(s.label)
                label.setObjectName(f"label_{s.name}")
                self.labels[s.name] = label
                setattr(self, label.objectName(), label)
                form.addRow(label, c.widget)
        for section in sections:
            self.forms[section] = form
        return box

    def _plan_box(self) -> QGroupBox:
        """GPUs, scheme and offload belong to each build's plan (chosen per build, pinned in the table)."""
        box = QGroupBox("GPUs and parallelism")
        lay = QVBoxLayout(box)
        self.label_plan = QLabel("Chosen for each build: all of its GPUs, the layout the engine uses, and "
                                 "offload only when nothing else fits. See the Plan column; right-click a "
                                 "build to pin its plan.")
        self.label_plan.setWordWrap(True)
        lay.addWidget(self.label_plan)
        return box

    def showEvent(self, event) -> None:
        self._fit_width()
        super().showEvent(event)

    def _fit_width(self) -> None:
        """Never narrower than the widest section, shown or hidden (no horizontal scroll bar)."""
        margins = self.widget().layout().contentsMargins()
        boxes = max(b.minimumSizeHint().width() for b in (self.box_inference, self.box_training))
        content = max(self.widget().minimumSizeHint().width(), boxes + margins.left() + margins.right())
        need = content + self.verticalScrollBar().sizeHint().width() + 2 * self.frameWidth()
        if self.minimumWidth() < need:
            self.setMinimumWidth(need)

    # --- reading the controls ---------------------------------------------------------
    def _read(self) -> dict:
        """The job the controls describe: every control of the chosen mode's sections, the rest as the job
        had them (kept for a switch back, ignored meanwhile)."""
        data = self.session.workload.model_dump()
        mode = Mode(self.controls["mode"].value())
        for name, c in self.controls.items():
            modes = c.setting.where.modes
            if not modes or mode in modes:
                data[name] = c.value()
        shown = self.session.workload
        if mode is not shown.mode:
            self._batch_kept[shown.mode] = shown.batch
            data["batch"] = self._batch_kept.get(mode, default_of("batch") if mode is Mode.TRAIN else data["batch"])
        return data

    def _on_control_edited(self, *_args) -> None:
        mode, method = Mode(self.controls["mode"].value()), Method(self.controls["method"].value())
        self._show_weights_of(weights_key(mode, method))
        note = self._fit_engine(mode)
        try:
            workload = settled(Job.model_validate(self._read()))  # what stops applying goes back
        except ValidationError as exc:
            self.label_problems.setText(words.validation_sentence(exc.errors()[0]))
            return
        self.label_note.setText(note)
        self._update_enabled(workload)
        self.session.set_workload(workload)

    def _fit_engine(self, mode: Mode) -> str:
        """Weights and KV type the chosen engine runs, and a sentence if one had to change."""
        if mode is not Mode.INFERENCE:
            return ""
        engine = Engine(self.controls["engine"].value())
        weights, kv, note = fit_to_engine(engine, str(self.controls["weights"].value()),
                                          str(self.controls["kv_dtype"].value()))
        self.controls["weights"].show(weights)
        self.controls["kv_dtype"].show(kv)
        return note

    def _show_weights_of(self, key: Mode | Method, value: str | None = None) -> None:
        """The Weights box offers the choices of ``key`` (inference, or a method's base) and shows its kept
        choice; full fine-tuning shows the one format it trains in."""
        c = self.controls["weights"]
        assert isinstance(c, ChoiceControl)
        precision = Precision(self.controls["precision"].value())
        choices = weights_choices(key, precision)
        changed = [str(v) for v in c.values] != list(choices)
        c.set_values(choices)
        if value is None and (changed or key is Method.FULL):
            value = choices[0] if key is Method.FULL else self._weights_kept[key]
        if value is not None:
            c.show(value)

    # --- showing the job --------------------------------------------------------------
    def _on_workload_changed(self, workload: Job) -> None:
        key = weights_key(workload.mode, workload.method)
        if key is not Method.FULL:
            self._weights_kept[key] = workload.weights
        for name, c in self.controls.items():
            if name != "weights":
                c.show(getattr(workload, name))
        self._show_weights_of(key, None if key is Method.FULL else workload.weights)
        self._update_enabled(workload)

    def _update_enabled(self, workload: Job) -> None:
        """Sections of the mode shown; a setting that does not apply greyed with its reason, or hidden where
        only another engine has it; labels in the mode's words; what the engine cannot run greyed in its list."""
        training = workload.mode is Mode.TRAIN
        self.box_inference.setVisible(not training)
        self.box_training.setVisible(training)
        for name, c in self.controls.items():
            reason = why_not(c.setting, workload)
            c.grey(None if reason is None else reason_words(reason))
            if c.setting.section is Section.INFERENCE and c.setting.where.engines:
                self.form_inference.setRowVisible(c.widget, reason is None or reason.name != "engine")
            if name in self.labels:
                self.labels[name].setText(c.setting.label_in(workload.mode))
        if not training:
            self._grey_items("weights", lambda v: engine_loads(workload.engine, str(v)))
        self._grey_items("kv_dtype", lambda v: engine_caches(workload.engine, str(v)))

    def _grey_items(self, name: str, allowed) -> None:
        c = self.controls[name]
        if isinstance(c, ChoiceControl):
            c.grey_items(allowed)

    # --- problems -------------------------------------------------------------------
    def _on_results_computed(self, results) -> None:
        lines = []
        for r in results.builds:
            lines += [f"{r.name} — {words.problem(p)}" for p in r.problems]
        text = "\n".join(dict.fromkeys(lines))
        if text != self.label_problems.text():
            self.label_problems.setText(text)


def _label(name: str, style: str) -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setObjectName(name)
    label.setStyleSheet(style)
    return label
