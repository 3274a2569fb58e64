<?php
/**
 * Router for `php -S` serving a throwaway MediaWiki: the code and its static assets come from
 * the Debian package's folder (the server's document root), the uploaded files from the
 * instance's own images folder (MW_INSTANCE_DIR), with the types Debian's Apache gives them
 * (/etc/mime.types). Everything else is left to the built-in server (PHP entry points with
 * their PATH_INFO, static files, 404).
 */
$path = rawurldecode(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH) ?? '/');
if (str_starts_with($path, '/images/')) {
    $root = realpath(getenv('MW_INSTANCE_DIR') . '/images');
    $file = realpath($root . substr($path, strlen('/images')));
    if ($root === false || $file === false || !str_starts_with($file, $root . '/') || !is_file($file)) {
        http_response_code(404);
        header('Content-Type: text/plain');
        echo "Not Found\n";
        return true;
    }
    $types = [
        'csv' => 'text/csv', 'pdf' => 'application/pdf', 'zip' => 'application/zip',
        'xlsx' => 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'png' => 'image/png', 'gif' => 'image/gif', 'jpg' => 'image/jpeg', 'jpeg' => 'image/jpeg',
    ];
    $extension = strtolower(pathinfo($file, PATHINFO_EXTENSION));
    header('Content-Type: ' . ($types[$extension] ?? 'application/octet-stream'));
    header('Content-Length: ' . filesize($file));
    header('Last-Modified: ' . gmdate('D, d M Y H:i:s', filemtime($file)) . ' GMT');
    if ($_SERVER['REQUEST_METHOD'] !== 'HEAD') readfile($file);
    return true;
}
return false;
