"""The Downtown Farmers Market service: protobuf conversion and the servicer."""
