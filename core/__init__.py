"""The bottom layer every app may import: the application error and its translation, and the
shared cache of the public pages (pagecache), whose one table is a version per page scope."""
