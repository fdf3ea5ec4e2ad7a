# latexmk settings for the book, read after Sphinx's latexmkrc (pdf.py: -r).
# The .aux records the document's page count, which grows once the table of
# contents is typeset; only LaTeX's last-page hook reads it, and the book has
# nothing there. Without this, that one line costs a third xelatex pass.
$hash_calc_ignore_pattern{'aux'} = '^\\\\gdef\\s*\\\\\\@abspage\\@last\\{';
