"""The installation's public address, as the QR codes use it."""
