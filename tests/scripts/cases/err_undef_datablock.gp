# printing a datablock that does not exist
$a << EOD
1
EOD
print $b
