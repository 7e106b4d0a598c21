"""The bottom layer every app may import: plain building blocks with no models of their own."""
