# 言語のメッセージの読み込み（src/ui/i18n_view.rs）：取得できなかったときのバナー。
# { $language } と { $current } は各言語の自称（English、中文、日本語、Italiano）。

lang-unavailable = { $language }を読み込めませんでした（{ $error }）。ページは{ $current }のままです。
lang-error-status = サーバーが { $status } を返しました
lang-error-network = ネットワーク要求が失敗しました
lang-error-timeout = { $seconds } 秒以内に応答がありませんでした
lang-error-empty = ファイル { $file } にメッセージがありません
