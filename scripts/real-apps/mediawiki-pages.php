<?php
/**
 * The wiki's pages as a MediaWiki XML dump (for maintenance/importDump.php), and the list of the
 * files they link. Files are taken in name order; every other one is linked from a "Dataset N"
 * page (five per page: most as `[[Media:…]]`, a direct link to the file, one in five as
 * `[[:File:…]]`, its description page, which links the file in turn); the rest are listed only
 * by the API (and by Special: pages a crawl avoids). The Main Page links every Dataset page.
 *
 *   php mediawiki-pages.php FILES_DIR DUMP_OUT LINKED_OUT
 */

if ($argc < 4) {
    fwrite(STDERR, "usage: php mediawiki-pages.php FILES_DIR DUMP_OUT LINKED_OUT\n");
    exit(2);
}
[$_, $filesDir, $dumpOut, $linkedOut] = $argv;
$names = array_values(array_filter(scandir($filesDir), fn ($name) => $name[0] !== '.'));
sort($names, SORT_STRING);

$linked = [];
foreach ($names as $index => $name) {
    if ($index % 2 === 0) $linked[] = $name;
}
$pages = [];
foreach (array_chunk($linked, 5) as $number => $chunk) {
    $lines = ["Files of dataset " . ($number + 1) . ":", ''];
    foreach ($chunk as $position => $name) {
        $label = str_replace('_', ' ', pathinfo($name, PATHINFO_FILENAME));
        $lines[] = $position === 4 ? "* [[:File:$name|$label (description)]]" : "* [[Media:$name|$label]]";
    }
    $lines[] = '';
    $lines[] = '[[Category:Datasets]]';
    $pages['Dataset ' . ($number + 1)] = implode("\n", $lines);
}
$main = "Welcome to the data wiki.\n\n";
foreach (array_keys($pages) as $title) $main .= "* [[$title]]\n";
// The Main Page last: each page is rendered as it is imported, and links to pages not yet there would stay red.
$pages = ['Category:Datasets' => "Every dataset of the wiki."] + $pages + ['Main Page' => $main];

$timestamp = gmdate('Y-m-d\TH:i:s\Z');
$xml = '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="en">' . "\n";
foreach ($pages as $title => $text) {
    $namespace = str_starts_with($title, 'Category:') ? 14 : 0;
    $xml .= '<page><title>' . htmlspecialchars($title, ENT_XML1) . "</title><ns>$namespace</ns><revision>"
        . "<timestamp>$timestamp</timestamp><contributor><username>Admin</username></contributor>"
        . '<model>wikitext</model><format>text/x-wiki</format>'
        . '<text xml:space="preserve">' . htmlspecialchars($text, ENT_XML1) . "</text></revision></page>\n";
}
$xml .= "</mediawiki>\n";
file_put_contents($dumpOut, $xml);
file_put_contents($linkedOut, implode("\n", $linked) . "\n");
