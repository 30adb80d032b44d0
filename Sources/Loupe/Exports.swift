@_exported import LoupeCore
@_exported import LoupeStore
