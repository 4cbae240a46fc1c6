/// Every combination of the axes' changes applied to `base`, the first axis outermost (as nested loops
/// over the axes in order would make them): the settings a cross-validation chooses among.
public func settingsGrid<Settings>(_ base: Settings, _ axes: [[(inout Settings) -> Void]]) -> [Settings] {
  axes.reduce([base]) { grid, axis in
    grid.flatMap { settings in
      axis.map { change in
        var changed = settings
        change(&changed)
        return changed
      }
    }
  }
}

/// One axis of a ``settingsGrid(_:_:)``: `values` set at `path` in turn.
public func gridAxis<Settings, Value>(
  _ path: WritableKeyPath<Settings, Value>, _ values: [Value]
) -> [(inout Settings) -> Void] {
  values.map { value in { $0[keyPath: path] = value } }
}
