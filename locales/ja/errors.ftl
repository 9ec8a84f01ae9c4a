# ページ自身のエラー（src/ui/error_words.rs）：共有リンク、ブラウザーのストレージ、読み込んだファイル、
# ダウンロード、保存した実行。フィールド名、イベントの種類、シナリオ ID、下の層から届いた内容
# （{ $error }、{ $detail }、{ $problem }、{ $expected }、{ $found }）は翻訳しません。

## 共有リンク
error-link-encoding = リンクが壊れています（base64url のテキストではありません）。リンク全体をコピーしてください
error-link-compression = リンクのトレースを展開できませんでした（deflate データではありません）。リンク全体をコピーしてください
error-link-too-big = リンクのトレースを展開できませんでした：{ $limit } MB を超えており、リンクで運べるトレースより大きすぎます
error-link-not-text = リンクのトレースを展開できませんでした：テキストではありません
error-link-seed = リンクのシード「{ $seed }」は 0 から 18446744073709551615 までの整数ではありません
error-link-trace = リンクのトレースが正しくありません：{ $error }
error-link-faults = リンクの障害ルールが正しくありません：{ $error }
error-link-budget = リンクの予算が正しくありません：{ $error }
error-link-too-long = この実行はリンクで共有するには大きすぎます（{ $count } 文字）。代わりに JSON でエクスポートしてください
error-share-running = 共有リンクは実行が終わると表示されます。
error-share-empty = 共有リンクは何かを実行すると表示されます。
error-share-no-address = ページのアドレスを読めないため、リンクを作れません。

## ブラウザーのストレージ
error-storage-unavailable = ここではブラウザーのストレージを使えません。残すにはトレースを JSON でエクスポートしてください
error-storage-write = ブラウザーのストレージが実行の保存を拒否しました（{ $error }）：保存した実行を削除するか、トレースを JSON でエクスポートしてください
error-storage-corrupt = 保存した実行を読めませんでした（{ $error }）。そのまま残してあります
error-storage-list = 保存した実行の一覧が壊れています（{ $error }）。「保存した実行を消去」で新しい一覧を始めてください
error-storage-key = ブラウザーのストレージが記憶したキーの変更を拒否しました（{ $error }）。このタブでは引き続きそのキーを使います
error-storage-gone = その保存した実行はもうありません（別のタブで削除された可能性があります）

## ダウンロードと保存した実行
error-download = ブラウザーがファイルを用意できませんでした（{ $error }）
error-snapshot-faults = 障害ルールが正しくありません：{ $error }
error-snapshot-scenario = シナリオ「{ $id }」はこのバージョンにはありません
error-snapshot-prompts = この実行にはプロンプトが { $count } 個あります。保存できるのは { $limit } 個までです

## 読み込んだトレース
error-import-event = イベント { $entry }
error-import-the-trace = トレース
error-import-too-large = ファイルは { $size } MiB で、読み込みの上限 { $cap } MiB を超えています
error-import-empty = ファイルが空です。JSON でエクスポートしたトレースが必要です
error-import-not-json = ファイルが正しい JSON ではありません：{ $line } 行 { $column } 列、{ $detail }
error-import-not-trace = ファイルは JSON ですがトレースではありません：version、team_name、seed、entries を持つオブジェクトが必要ですが、{ $found } でした
error-import-no-version = ファイルに "version" フィールドがないため、トレースのエクスポートではありません。このビルドが読むのはトレース形式のバージョン { $versions } です
error-import-version = トレース形式のバージョン { $found } には対応していません。このビルドが読むのはバージョン { $versions } です
error-import-missing-field = { $place }に必須のフィールド「{ $field }」がありません
error-import-bad-field = { $place }のフィールド「{ $field }」が正しくありません：{ $problem }
error-import-kind = イベント { $entry } の種類「{ $kind }」は不明です。{ $expected }
error-import-sequence = 位置 { $index } のイベントの番号が { $seq } です。イベントは 0、1、2… の順に番号が付いていなければなりません
error-import-time = イベント { $seq } は { $at } に起きており、前のイベントの { $previous } より前です。時間は戻れません
error-import-protocol = イベント { $seq } はプロトコルのルールに反しています：{ $error }
error-import-recorded-file = このトレースが記録しているプロトコルファイル「{ $name }」を読み込めません：{ $line } 行 { $column } 列：{ $error }
error-import-different-file = このトレースは { $recorded }（{ $summary }）のもとで実行されました。いま読み込まれているファイルはそれと異なります：{ $difference }
