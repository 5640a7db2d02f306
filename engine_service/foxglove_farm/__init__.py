"""The Foxglove Farm service: protobuf conversion and the servicer."""
