@_exported import LoupeCore
