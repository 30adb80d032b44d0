extension RuntimeBase {
  /// Emits one `state.changed` per store with changes.
  ///
  /// The root state is diffed once; each change belongs to the deepest live store whose path
  /// is a prefix of the change's path, and is reported with a path relative to that store.
  /// Changes at or inside a store whose identity began in this action belong to its parent
  /// (they are the presentation itself, `_detail changed`); the new store gets its own event
  /// with `@identity`, whose changes are the diff from its previous lifetime's last state (an
  /// `insert` of the whole state at `""` when there was none). Children that begin together
  /// with their parent are part of the parent's `@self` and get no event of their own.
  ///
  /// Returns the bytes the changes hold (for the snapshot policy).
  func emitStateChanges<State>(from old: State, to new: State, context: ReductionContext, newNodes: [StoreNode]) -> Int {
    if root.longestChildPath == 0 && newNodes.isEmpty {
      // No child stores: every change is the root's, at the path it has, and the summary needs
      // only each path's first component.
      let (changes, firsts) = StateDiff.diffWithFirstComponents(old, new, options: context.options, shapes: true, pathTexts: pathTexts)
      guard !changes.isEmpty else {
        pathTexts.giveBack(firsts: firsts)
        return 0
      }
      let bytes = EventMemory.size(of: changes)
      let summary = ChangeSummary.line(store: root.id, firstComponents: firsts, newIdentity: root.isNewIdentity, cache: &rootSummaries)
      pathTexts.giveBack(firsts: firsts)
      bus.emit(.stateChanged(StateChanged(
        store: root.id, cause: context.cause(for: root), changes: changes, summary: summary,
        origin: context.toolClient == nil ? nil : .tool, client: context.toolClient)))
      return bytes
    }
    // The differ hands each change's path over as components too: nothing is parsed back.
    let (changes, paths) = StateDiff.diffWithPaths(old, new, options: context.options, shapes: true, pathTexts: pathTexts)
    let bytes = changes.isEmpty ? 0 : EventMemory.size(of: changes)
    var groups: [ObjectIdentifier: StoreChanges] = [:]
    for (change, path) in zip(changes, paths) {
      let (owner, relative) = self.owner(of: path)
      var local = change
      if owner !== root { local.path = relative.description }
      groups[ObjectIdentifier(owner), default: StoreChanges(node: owner, changes: [], paths: [])].append(local, at: relative)
    }
    for node in newNodes where node.isAlive && !(node.parent?.isNewIdentity ?? false) {
      groups[ObjectIdentifier(node)] = StoreChanges(node: node, changes: node.identityChanges, paths: nil)
    }
    for group in groups.values.sorted(by: { $0.node.serial < $1.node.serial }) {
      let node = group.node
      let summary =
        if let paths = group.paths {
          ChangeSummary.line(store: node.id, paths: paths, newIdentity: node.isNewIdentity)
        } else {
          ChangeSummary.line(store: node.id, changes: group.changes, newIdentity: node.isNewIdentity)
        }
      bus.emit(.stateChanged(StateChanged(
        store: node.id, cause: context.cause(for: node), changes: group.changes, summary: summary,
        origin: context.toolClient == nil ? nil : .tool, client: context.toolClient)))
    }
    return bytes
  }

  /// The store that owns a change at `path`, and the path relative to it.
  func owner(of path: StatePath) -> (StoreNode, StatePath) {
    if root.longestChildPath == 0 { return (root, path) }
    var node: StoreNode = root
    var remaining = path.components[...]
    descending: while node.longestChildPath > 0 {
      var length = min(node.longestChildPath, remaining.count)
      while length > 0 {
        if let child = node.childrenByPath[StatePath(Array(remaining.prefix(length)))], !child.isNewIdentity {
          node = child
          remaining = remaining.dropFirst(length)
          continue descending
        }
        length -= 1
      }
      break
    }
    return (node, StatePath(Array(remaining)))
  }
}

/// The changes of one store in one action, with their paths relative to it as components
/// when known (not for a new identity's changes, which are summarized from their text).
private struct StoreChanges {
  let node: StoreNode
  var changes: [Change]
  var paths: [StatePath]?

  mutating func append(_ change: Change, at path: StatePath) {
    changes.append(change)
    paths?.append(path)
  }
}
