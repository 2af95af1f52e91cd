// Services speak in the core's terms (statuses, metadata, the scheduler their
// calls run on); the server transport brings them along, so a service module
// imports the transport alone.
@_exported import GRPCCore
