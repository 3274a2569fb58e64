<?php
/**
 * Writes a deterministic set of data files for the real-application benches: CSV, PDF, XLSX,
 * ZIP, PNG and GIF, small, with contents that depend only on the seed. Each file is a real
 * instance of its format (the applications inspect what they are given: MediaWiki's MIME
 * check reads a ZIP's entries to tell an XLSX from a plain archive).
 *
 *   php generate-files.php OUT_DIR [COUNT] [SEED]
 *
 * Prints nothing; OUT_DIR ends up holding COUNT files named `<Topic>_<year>_<n>.<ext>`.
 */

if ($argc < 2) {
    fwrite(STDERR, "usage: php generate-files.php OUT_DIR [COUNT] [SEED]\n");
    exit(2);
}
$out = rtrim($argv[1], '/');
$count = (int) ($argv[2] ?? 300);
$seed = (int) ($argv[3] ?? 1);
if (!is_dir($out) && !mkdir($out, 0777, true)) {
    fwrite(STDERR, "cannot create $out\n");
    exit(1);
}
if (!function_exists('imagecreatetruecolor')) {
    fwrite(STDERR, "php-gd is missing (apt-get install -y php-gd)\n");
    exit(2);
}

mt_srand($seed, MT_RAND_MT19937);

$topics = ['Budget', 'Population', 'Rainfall', 'Traffic', 'Schools', 'Hospitals', 'Elections', 'Housing', 'Transport', 'Energy'];
// The share of each format, in a cycle so that every count gets every format.
$kinds = ['csv', 'csv', 'csv', 'pdf', 'pdf', 'xlsx', 'zip', 'png', 'gif', 'csv'];

for ($i = 1; $i <= $count; $i++) {
    $kind = $kinds[($i - 1) % count($kinds)];
    $topic = $topics[mt_rand(0, count($topics) - 1)];
    $year = mt_rand(1995, 2023);
    $name = sprintf('%s_%d_%04d.%s', $topic, $year, $i, $kind);
    $rows = mt_rand(5, 60);
    switch ($kind) {
        case 'csv':
            $body = csvText($topic, $year, $rows);
            break;
        case 'pdf':
            $body = pdfDocument("$topic $year, report $i");
            break;
        case 'xlsx':
            $body = xlsxWorkbook($topic, $year, $rows);
            break;
        case 'zip':
            $body = zipArchive(['data.csv' => csvText($topic, $year, $rows), 'README.txt' => "$topic $year, archive $i\n"]);
            break;
        case 'png':
        case 'gif':
            $body = image($kind, $i);
            break;
    }
    file_put_contents("$out/$name", $body);
}

function csvText(string $topic, int $year, int $rows): string
{
    $text = "region,year,$topic,change\n";
    for ($r = 1; $r <= $rows; $r++) {
        $text .= sprintf("R%02d,%d,%d,%.2f\n", $r, $year, mt_rand(100, 99999), mt_rand(-500, 500) / 100);
    }
    return $text;
}

/** A one-page PDF 1.4 with a text line, its xref offsets computed. */
function pdfDocument(string $line): string
{
    $escaped = strtr($line, ['\\' => '\\\\', '(' => '\\(', ')' => '\\)']);
    $stream = "BT /F1 18 Tf 72 720 Td ($escaped) Tj ET";
    $objects = [
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
        '<< /Length ' . strlen($stream) . " >>\nstream\n$stream\nendstream",
        '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ];
    $pdf = "%PDF-1.4\n";
    $offsets = [];
    foreach ($objects as $index => $object) {
        $offsets[] = strlen($pdf);
        $pdf .= ($index + 1) . " 0 obj\n$object\nendobj\n";
    }
    $xref = strlen($pdf);
    $pdf .= "xref\n0 " . (count($objects) + 1) . "\n0000000000 65535 f \n";
    foreach ($offsets as $offset) $pdf .= sprintf("%010d 00000 n \n", $offset);
    $pdf .= "trailer\n<< /Size " . (count($objects) + 1) . " /Root 1 0 R >>\nstartxref\n$xref\n%%EOF\n";
    return $pdf;
}

/** The smallest workbook Excel and LibreOffice open: one sheet of inline strings and numbers. */
function xlsxWorkbook(string $topic, int $year, int $rows): string
{
    $sheetRows = '<row r="1"><c r="A1" t="inlineStr"><is><t>region</t></is></c><c r="B1" t="inlineStr"><is><t>' . $topic . '</t></is></c></row>';
    for ($r = 2; $r <= $rows + 1; $r++) {
        $sheetRows .= sprintf('<row r="%d"><c r="A%d" t="inlineStr"><is><t>R%02d</t></is></c><c r="B%d"><v>%d</v></c></row>', $r, $r, $r - 1, $r, mt_rand(100, 99999));
    }
    return zipArchive([
        '[Content_Types].xml' => '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
        '_rels/.rels' => '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        'xl/workbook.xml' => '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="' . $year . '" sheetId="1" r:id="rId1"/></sheets></workbook>',
        'xl/_rels/workbook.xml.rels' => '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
        'xl/worksheets/sheet1.xml' => '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' . $sheetRows . '</sheetData></worksheet>',
    ]);
}

/** A ZIP of stored (uncompressed) entries with a fixed date, so that the bytes depend only on the contents. */
function zipArchive(array $entries): string
{
    $data = '';
    $central = '';
    $dosTime = 0;
    $dosDate = ((2020 - 1980) << 9) | (1 << 5) | 1;
    foreach ($entries as $name => $content) {
        $crc = crc32($content);
        $size = strlen($content);
        $offset = strlen($data);
        $data .= pack('VvvvvvVVVvv', 0x04034b50, 20, 0, 0, $dosTime, $dosDate, $crc, $size, $size, strlen($name), 0) . $name . $content;
        $central .= pack('VvvvvvvVVVvvvvvVV', 0x02014b50, 20, 20, 0, 0, $dosTime, $dosDate, $crc, $size, $size, strlen($name), 0, 0, 0, 0, 0, $offset) . $name;
    }
    return $data . $central . pack('VvvvvVVv', 0x06054b50, 0, 0, count($entries), count($entries), strlen($central), strlen($data), 0);
}

function image(string $kind, int $index): string
{
    $width = 40 + mt_rand(0, 80);
    $height = 30 + mt_rand(0, 60);
    $picture = imagecreatetruecolor($width, $height);
    imagefilledrectangle($picture, 0, 0, $width, $height, imagecolorallocate($picture, mt_rand(0, 255), mt_rand(0, 255), mt_rand(0, 255)));
    for ($bar = 0; $bar < 6; $bar++) {
        $x = mt_rand(0, $width - 8);
        imagefilledrectangle($picture, $x, mt_rand(0, $height / 2), $x + 6, $height, imagecolorallocate($picture, mt_rand(0, 255), mt_rand(0, 255), mt_rand(0, 255)));
    }
    imagestring($picture, 2, 2, 2, (string) $index, imagecolorallocate($picture, 0, 0, 0));
    ob_start();
    $kind === 'png' ? imagepng($picture) : imagegif($picture);
    return (string) ob_get_clean();
}
