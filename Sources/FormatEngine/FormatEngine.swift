// The library product: the layers, each a target that depends only on those below it
// (Package.swift, docs/ARCHITECTURE.md), as one module. Their public types are this library's
// surface: ExitStatus (Support); DisplayWidth, Sanitize, EllipsisMode, TextLine (Text);
// InputFormat, TextEncoding, InputError … (Input); FormatOptions and what it names (Options);
// TableFormatter, FormatError, DescriptorSink (Run). What the layers share among themselves is
// `package`: seen by this package's targets (the executable, the tests), not by a library user.
@_exported import Support
@_exported import Text
@_exported import Input
@_exported import Profile
@_exported import Transform
@_exported import Schedule
@_exported import Options
@_exported import Layout
@_exported import Render
@_exported import Save
@_exported import Run
@_exported import Viewer
