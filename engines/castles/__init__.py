"""The Castles deck (Dvorak wiki, 2007): a six-zone board of Soldiers, Spells and Castles."""
