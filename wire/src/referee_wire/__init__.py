"""What both ends of the wire share beyond the generated messages (:mod:`referee`): reading
a refusal's rich status (:mod:`.rich_status`) and a ``Struct``'s JSON (:mod:`.struct_json`).
"""
