extension EventExpectation {
  // MARK: Actions and state

  /// An `action.received` whose label matches `label`: `"PageFeature.Action.timerTicked"`,
  /// `"timerTicked"`, `"PageFeature.Action.*"`.
  ///
  /// - Parameters:
  ///   - label: The action's label (a pattern).
  ///   - store: The store that received it (a pattern).
  ///   - origin: `.send` (sent by the program), `.effect` or `.parent`.
  ///   - effect: The id of the effect that sent it.
  public static func action(
    _ label: String, store: String? = nil, origin: ActionReceived.Origin? = nil, effect: Int? = nil
  ) -> Self {
    Self(kind: ActionReceived.kind, store: store, fields: [
      .name("action", label) { $0.actionReceived?.action },
      .equal("origin", origin, shown: origin?.rawValue) { $0.actionReceived?.origin },
      .equal("effect", effect) { $0.actionReceived?.effect },
    ])
  }

  /// An `action.received` of exactly `action`: its label and its rendered value (payload
  /// included) must both match.
  ///
  /// ```swift
  /// .action(PageFeature.Action.selected(true), store: "PageFeature#2")
  /// ```
  public static func action<Action>(
    _ action: Action, store: String? = nil, origin: ActionReceived.Origin? = nil, effect: Int? = nil
  ) -> Self {
    let label = ValueRenderer.actionLabel(action)
    let (value, shape) = ValueRenderer.renderWithShape(action)
    let shown = EventText.actionValue(label: label, value: value, shape: shape)
    return Self(kind: ActionReceived.kind, store: store, fields: [
      .equal("action", label) { $0.actionReceived?.action },
      .equal("value", value, shown: shown ?? "") { $0.actionReceived?.value }.map { shown == nil ? $0.hidden : $0 },
      .equal("origin", origin, shown: origin?.rawValue) { $0.actionReceived?.origin },
      .equal("effect", effect) { $0.actionReceived?.effect },
    ])
  }

  /// Any `action.received`, optionally in `store`, with `origin`.
  public static func action(store: String? = nil, origin: ActionReceived.Origin? = nil) -> Self {
    Self(kind: ActionReceived.kind, store: store, fields: [
      .equal("origin", origin, shown: origin?.rawValue) { $0.actionReceived?.origin }
    ])
  }

  /// A `state.changed`.
  ///
  /// - Parameters:
  ///   - store: The store whose state changed (a pattern).
  ///   - paths: The changed paths (patterns; `"@self"` is the whole state). Each must match a
  ///     change, and each change must match one of them. A path matches a change's own path
  ///     (relative to its store) or its path from the root store: `pages*.count` matches the
  ///     `count` of `AppFeature#1/pages[id: 1]`.
  ///   - changes: The changes with their values, e.g. `[.replace("count", from: 0, to: 1)]`;
  ///     matched like `paths`.
  ///   - summary: The `_printChanges()`-style line (a pattern).
  public static func stateChanged(
    store: String? = nil, paths: [String]? = nil, changes: [ChangeExpectation]? = nil, summary: String? = nil
  ) -> Self {
    Self(kind: StateChanged.kind, store: store, fields: [
      paths.map { paths in
        let expected = paths.map { ChangeExpectation.changed($0) }
        return .when("paths: [\(paths.joined(separator: ", "))]", { $0.stateChanged }) {
          ChangeExpectation.match(expected, $0.changes, store: $0.store)
        }
      },
      changes.map { expected in
        .when("changes: [\(expected.map(\.description).joined(separator: ", "))]", { $0.stateChanged }) {
          ChangeExpectation.match(expected, $0.changes, store: $0.store)
        }
      },
      .glob("summary", summary) { $0.stateChanged?.summary },
    ])
  }

  // MARK: Effects

  /// An `effect.started`.
  ///
  /// - Parameters:
  ///   - store: The store whose reducer returned the effect (a pattern).
  ///   - cancelID: Its cancel id (a pattern: `"PageFeature.CancelID.timer"`, `"timer"`).
  ///   - effect: Its effect id.
  public static func effectStarted(store: String? = nil, cancelID: String? = nil, effect: Int? = nil) -> Self {
    Self(kind: EffectStarted.kind, store: store, fields: [
      .equal("effect", effect) { $0.effectStarted?.effect },
      .name("cancelID", cancelID) { $0.effectStarted?.cancelID },
    ])
  }

  /// An `effect.finished`: the effect ran to its end (`outcome` `.completed` or `.failed`).
  public static func effectFinished(
    store: String? = nil, effect: Int? = nil, outcome: EffectFinished.Outcome? = nil
  ) -> Self {
    Self(kind: EffectFinished.kind, store: store, fields: [
      .equal("effect", effect) { $0.effectFinished?.effect },
      .equal("outcome", outcome, shown: outcome?.rawValue) { $0.effectFinished?.outcome },
    ])
  }

  /// An `effect.cancelled`.
  ///
  /// - Parameters:
  ///   - store: The store the effect belonged to (a pattern).
  ///   - cancelID: Its cancel id (a pattern).
  ///   - reason: `.cancel`, `.cancelInFlight`, `.storeDestroyed` or `.identityEnded`.
  ///   - by: The store whose action cancelled it (a pattern). An effect cancelled by no
  ///     store's action (`by` null: a `StoreTask` cancelled, a store released) never matches
  ///     a `by` pattern.
  ///   - effect: Its effect id.
  public static func effectCancelled(
    store: String? = nil, cancelID: String? = nil, reason: EffectCancelled.Reason? = nil, by: String? = nil,
    effect: Int? = nil
  ) -> Self {
    Self(kind: EffectCancelled.kind, store: store, fields: [
      .equal("effect", effect) { $0.effectCancelled?.effect },
      .name("cancelID", cancelID) { $0.effectCancelled?.cancelID },
      .equal("reason", reason, shown: reason?.rawValue) { $0.effectCancelled?.reason },
      .glob("by", by) { $0.effectCancelled?.by?.store },
    ])
  }

  // MARK: Stores and identities

  /// A `store.created`.
  public static func storeCreated(_ store: String? = nil, type: String? = nil, parent: String? = nil) -> Self {
    Self(kind: StoreCreated.kind, store: store, fields: [
      .glob("type", type) { $0.storeCreated?.type },
      .glob("parent", parent) { $0.storeCreated?.parent },
    ])
  }

  /// A `store.destroyed`.
  public static func storeDestroyed(_ store: String? = nil) -> Self {
    Self(kind: StoreDestroyed.kind, store: store)
  }

  /// An `identity.changed`: an identity behind `store` began, ended or was replaced.
  ///
  /// - Parameters:
  ///   - store: The store id (a pattern).
  ///   - identity: The identity (`i3`; a pattern).
  ///   - previous: The identity it replaced (a pattern).
  ///   - reason: `.created`, `.presented`, `.dismissed`, `.inserted`, `.removed` or `.replaced`.
  public static func identityChanged(
    _ store: String? = nil, identity: String? = nil, previous: String? = nil, reason: IdentityChanged.Reason? = nil
  ) -> Self {
    Self(kind: IdentityChanged.kind, store: store, fields: [
      .glob("identity", identity) { $0.identityChanged?.identity },
      .glob("previous", previous) { $0.identityChanged?.previous },
      .equal("reason", reason, shown: reason?.rawValue) { $0.identityChanged?.reason },
    ])
  }

  // MARK: Others

  /// A `derived.recomputed` of the derived value `name` (a pattern).
  public static func derivedRecomputed(_ name: String? = nil, store: String? = nil, outputChanged: Bool? = nil) -> Self {
    Self(kind: DerivedRecomputed.kind, store: store, fields: [
      .glob("derived", name) { $0.derivedRecomputed?.derived },
      .equal("outputChanged", outputChanged) { $0.derivedRecomputed?.outputChanged },
    ])
  }

  /// A `mark` with `label` (a pattern).
  public static func mark(_ label: String? = nil) -> Self {
    Self(kind: Mark.kind, store: nil, fields: [.glob("label", label) { if case .mark(let e) = $0 { e.label } else { nil } }])
  }

  /// A `warning` (the runtime survived a misuse), with `code`, e.g. `sendToEndedStore`.
  public static func warning(code: String? = nil, store: String? = nil) -> Self {
    Self(kind: Warning.kind, store: store, fields: [.glob("code", code) { if case .warning(let e) = $0 { e.code } else { nil } }])
  }

  /// A `dropped` event.
  public static func dropped(count: Int? = nil) -> Self {
    Self(kind: Dropped.kind, store: nil, fields: [.equal("count", count) { if case .dropped(let e) = $0 { e.count } else { nil } }])
  }

  /// Any event whose kind matches `kind` (a pattern: `"effect.*"`), optionally in `store`.
  public static func event(kind: String, store: String? = nil) -> Self {
    Self(kind: kind, store: store)
  }
}

extension EventExpectation.Field {
  /// The same test, without text: for a value that the label already says.
  var hidden: Self { Self(text: "", matches: matches) }
}

extension Event.Payload {
  var actionReceived: ActionReceived? { if case .actionReceived(let e) = self { e } else { nil } }
  var stateChanged: StateChanged? { if case .stateChanged(let e) = self { e } else { nil } }
  var effectStarted: EffectStarted? { if case .effectStarted(let e) = self { e } else { nil } }
  var effectFinished: EffectFinished? { if case .effectFinished(let e) = self { e } else { nil } }
  var effectCancelled: EffectCancelled? { if case .effectCancelled(let e) = self { e } else { nil } }
  var storeCreated: StoreCreated? { if case .storeCreated(let e) = self { e } else { nil } }
  var identityChanged: IdentityChanged? { if case .identityChanged(let e) = self { e } else { nil } }
  var derivedRecomputed: DerivedRecomputed? { if case .derivedRecomputed(let e) = self { e } else { nil } }
}
