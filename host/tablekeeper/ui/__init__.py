"""Drawing: what each display shows (a ``Panel``) -> a 1-bit PIL image. No hardware here."""
