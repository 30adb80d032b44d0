// `import LoupeTesting` is all a test needs: the store (`Store`, `Reducer`, `TestClock`, …)
// and the core (`Event`, `EventBus`, `EventFilter`, `TraceReader`, …) come with it.
@_exported import Loupe
import LoupeSession
