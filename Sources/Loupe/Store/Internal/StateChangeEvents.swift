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
  func emitStateChanges<State>(from old: State, to new: State, context: ReductionContext, newNodes: [StoreNode]) {
    var groups: [ObjectIdentifier: (node: StoreNode, changes: [Change])] = [:]
    for change in StateDiff.diff(old, new, options: context.options) {
      let path = (try? StatePath(parsing: change.path)) ?? StatePath([.field(change.path)])
      let (owner, relative) = self.owner(of: path)
      var local = change
      local.path = relative.description
      groups[ObjectIdentifier(owner), default: (owner, [])].changes.append(local)
    }
    for node in newNodes where node.isAlive && !(node.parent?.isNewIdentity ?? false) {
      groups[ObjectIdentifier(node)] = (node, node.identityChanges)
    }
    for (node, changes) in groups.values.sorted(by: { $0.node.serial < $1.node.serial }) {
      bus.emit(.stateChanged(StateChanged(
        store: node.id, cause: context.cause(for: node), changes: changes,
        summary: ChangeSummary.line(store: node.id, changes: changes, newIdentity: node.isNewIdentity))))
    }
  }

  /// The store that owns a change at `path`, and the path relative to it.
  func owner(of path: StatePath) -> (StoreNode, StatePath) {
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
